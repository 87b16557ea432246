// The environment variables `npm run engine` (cli.ts) reads, and what each means: the second
// part of docs/configuration.md is generated from this (`npm run docs:config`), and a test
// checks that cli.ts reads exactly these.
export const ENGINE_CLI_VARIABLES: Readonly<Record<string, string>> = {
  DATABASE_URL:
    'The database to serve, a `postgres://` URL, when neither `--database-url-file PATH` nor `--database-url` is given (the name Electric reads). A file keeps the password out of `ps`.',
  ELECTRIC_SECRET:
    'The secret every request must carry as `?secret=`, when neither `--secret-file PATH` nor `--secret` is given (the name Electric reads). Unset: no secret, so listen on loopback only.',
  METRICS_PORT:
    'Serves `GET /metrics` (Prometheus text format) on this port, as the server does. Unset: none.',
  METRICS_HOST:
    'The interface the metrics port listens on. Unset: `127.0.0.1`.',
}
