// Where the tests find nginx: Debian's nginx-light, or NGINX_PATH.
export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx'
