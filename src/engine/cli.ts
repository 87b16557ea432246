// `npm run engine`: one database served as an Electric-compatible shape API (USAGE below).
// With METRICS_PORT (and METRICS_HOST, loopback by default) in the environment, Prometheus
// metrics on that port, like the server's.
import type { AddressInfo } from 'node:net'
import { parseArgs } from 'node:util'
import { Engine } from './engine.ts'
import { createEngineServer } from './http/node-listener.ts'
import { serveStandaloneMetrics } from './ops/standalone-metrics.ts'
import { readSecretOption, type SecretOption } from './secret-option.ts'

const USAGE = `Usage: npm run engine -- [options]

  --database-url-file PATH  the database's postgres:// URL, read from a file
                            (or DATABASE_URL in the environment; --database-url URL also
                            works, but shows the password in ps to every user of the machine)
  --secret-file PATH        the secret every request must carry as ?secret=, read from a file
                            (or ELECTRIC_SECRET; --secret S shows it in ps)
  --port 3000               the port to listen on
  --host 127.0.0.1          the address to listen on; beyond loopback, give a secret
  --allow-shape-deletion    let DELETE /v1/shape rotate a shape
  --chunk-bytes 10485760    where log answers end (at least 10000)
  --data-dir ./.sluice-engine
  --help                    show this help

METRICS_PORT (and METRICS_HOST, loopback by default) serve Prometheus metrics.`

// The names Electric's own server reads, so an Electric deployment's environment carries over.
const DATABASE_URL: SecretOption = {
  name: 'database-url',
  variable: 'DATABASE_URL',
}
const SECRET: SecretOption = { name: 'secret', variable: 'ELECTRIC_SECRET' }

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    'database-url-file': { type: 'string' },
    port: { type: 'string', default: '3000' },
    // Loopback unless asked: without a secret, anyone who reaches it reads every table the
    // database role can read.
    host: { type: 'string', default: '127.0.0.1' },
    secret: { type: 'string' },
    'secret-file': { type: 'string' },
    'allow-shape-deletion': { type: 'boolean', default: false },
    'chunk-bytes': { type: 'string' },
    'data-dir': { type: 'string', default: './.sluice-engine' },
    help: { type: 'boolean', default: false },
  },
})

if (values.help) {
  console.log(USAGE)
  process.exit(0)
}

/** The secret from its option, file or variable; exits naming the option when it cannot. */
function secretOf(option: SecretOption): string | undefined {
  const read = readSecretOption(option, values, process.env)
  if (!read.ok) {
    console.error(read.error)
    process.exit(1)
  }
  if (read.warning) console.warn(`warning: ${read.warning}`)
  return read.value
}

const url = secretOf(DATABASE_URL)
const secret = secretOf(SECRET)
const port = Number(values.port)
if (!url || !/^postgres(ql)?:\/\//.test(url)) {
  console.error(
    'give the database as a postgres:// URL: --database-url-file PATH or DATABASE_URL (--help)',
  )
  process.exit(1)
}
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('--port must be a port number')
  process.exit(1)
}
const chunkBytes =
  values['chunk-bytes'] === undefined
    ? undefined
    : Number(values['chunk-bytes'])
// Electric's own test setup uses 10,000; smaller would answer a few rows at a time.
if (
  chunkBytes !== undefined &&
  (!Number.isSafeInteger(chunkBytes) || chunkBytes < 10_000)
) {
  console.error('--chunk-bytes must be a whole number of bytes, at least 10000')
  process.exit(1)
}

// The server's variables (README): the port off unless set, the host loopback unless opened.
const metricsPort = process.env.METRICS_PORT
  ? Number(process.env.METRICS_PORT)
  : undefined
if (
  metricsPort !== undefined &&
  (!Number.isInteger(metricsPort) || metricsPort < 1 || metricsPort > 65535)
) {
  console.error('METRICS_PORT must be a port number')
  process.exit(1)
}
const metricsHost = process.env.METRICS_HOST || '127.0.0.1'

const engine = new Engine({
  dataDir: values['data-dir'] ?? './.sluice-engine',
  log: (line) => console.warn(line),
})
// No address guard (no pinHost): the operator running this names the database, loopback or not.
const ID = 'standalone'
const database = engine.attach(ID, url, {
  events: {
    onStatus: (status, reason) => {
      console.log(`database ${status}${reason ? `: ${reason}` : ''}`)
      if (status === 'active') metrics?.measure()
    },
  },
})
const server = createEngineServer({
  database,
  secret,
  allowShapeDeletion: values['allow-shape-deletion'],
  chunkBytes,
})
const host = values.host ?? '127.0.0.1'
server.listen(port, host, () => {
  const info = server.address() as AddressInfo
  const shown = host.includes(':') ? `[${host}]` : host
  console.log(
    `Sluice engine serving the shape API on http://${shown}:${info.port}/v1/shape`,
  )
  if (!isLoopback(host) && !secret)
    console.warn(
      `warning: listening on ${host} without --secret: anyone who can reach it can read every table the database role can read. Pass --secret-file (or ELECTRIC_SECRET), or --host 127.0.0.1.`,
    )
})
// Declared after the database it reads; its status callback runs only once this is set.
const metrics =
  metricsPort === undefined
    ? null
    : serveStandaloneMetrics({
        id: ID,
        database,
        port: metricsPort,
        host: metricsHost,
        onListening: (port) =>
          console.log(
            `metrics on http://${metricsHost.includes(':') ? `[${metricsHost}]` : metricsHost}:${port}/metrics`,
          ),
      })
function isLoopback(name: string): boolean {
  return name === 'localhost' || name === '::1' || /^127\./.test(name)
}

const shutdown = () => {
  server.close()
  metrics?.close()
  engine.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  )
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
