// The compose nginx config run on this machine (tests/integration/deploy.test.ts): a
// self-signed certificate where the operator's goes, local paths and ports where compose mounts
// and resolves its own, and an https client that trusts that certificate.
import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { request } from 'node:https'
import { join, resolve } from 'node:path'

const SHAPE_CACHE_CONF = resolve(
  import.meta.dirname,
  '../../deploy/nginx/shape-cache.conf',
)

/** A self-signed certificate for localhost where the config expects the operator's. */
export function makeCertificate(dir: string) {
  mkdirSync(join(dir, 'tls'), { recursive: true })
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost',
      '-keyout',
      join(dir, 'tls/privkey.pem'),
      '-out',
      join(dir, 'tls/fullchain.pem'),
    ],
    { stdio: 'ignore' },
  )
}

/**
 * The compose nginx config with this machine's paths and ports: each path or name compose
 * mounts or resolves is replaced exactly where it stands, and the config is otherwise as
 * shipped (a replacement that no longer finds its text fails the test).
 */
export function localNginxConfig(
  conf: string,
  {
    dir,
    httpPort,
    httpsPort,
    upstream,
  }: {
    dir: string
    httpPort: number
    httpsPort: number
    upstream: number
  },
) {
  const replacements: [string | RegExp, string][] = [
    ['listen 80;', `listen 127.0.0.1:${httpPort};`],
    ['listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`],
    ['/etc/nginx/sluice/shape-cache.conf', SHAPE_CACHE_CONF],
    [/\/etc\/nginx\/tls\//g, `${dir}/tls/`],
    ['/var/cache/nginx/sluice', `${dir}/cache`],
    [/server sluice-[a-z-]+:5133;/g, `server 127.0.0.1:${upstream};`],
    [
      'http {',
      `http {\n  proxy_temp_path ${dir}/tmp/proxy;\n  client_body_temp_path ${dir}/tmp/body;\n  fastcgi_temp_path ${dir}/tmp/fastcgi;\n  uwsgi_temp_path ${dir}/tmp/uwsgi;\n  scgi_temp_path ${dir}/tmp/scgi;`,
    ],
  ]
  let local = `daemon off;\npid ${dir}/nginx.pid;\n${conf}`
  for (const [from, to] of replacements) {
    const before = local
    local = local.replace(from, to)
    if (local === before) throw new Error(`nginx.conf no longer has ${from}`)
  }
  return local
}

export function httpsGet(port: number, path: string, ca: Buffer) {
  return new Promise<{
    status: number
    headers: Record<string, string | string[] | undefined>
    body: string
  }>((done, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        ca,
        servername: 'localhost',
        headers: { host: 'localhost' },
      },
      (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => (body += chunk.toString()))
        res.on('end', () =>
          done({ status: res.statusCode ?? 0, headers: res.headers, body }),
        )
      },
    )
    req.on('error', fail)
    req.end()
  })
}
