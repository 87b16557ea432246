// `npm run engine -- --database-url <url> [--port 3000] [--host 127.0.0.1] [--secret s]
// [--allow-shape-deletion] [--chunk-bytes 10485760] [--data-dir ./.sluice-engine]`: one database served as an
// Electric-compatible shape API. With METRICS_PORT (and METRICS_HOST, loopback by default) in
// the environment, Prometheus metrics on that port, like the server's.
import type { AddressInfo } from 'node:net'
import { parseArgs } from 'node:util'
import { Engine } from './engine.ts'
import { createEngineServer } from './http/node-listener.ts'
import { serveStandaloneMetrics } from './ops/standalone-metrics.ts'

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    port: { type: 'string', default: '3000' },
    // Loopback unless asked: without --secret, anyone who reaches it reads every table the
    // database role can read.
    host: { type: 'string', default: '127.0.0.1' },
    secret: { type: 'string' },
    'allow-shape-deletion': { type: 'boolean', default: false },
    'chunk-bytes': { type: 'string' },
    'data-dir': { type: 'string', default: './.sluice-engine' },
  },
})

const url = values['database-url']
const port = Number(values.port)
if (!url || !/^postgres(ql)?:\/\//.test(url)) {
  console.error('--database-url must be a postgres:// URL')
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
// At least one index step (64 KiB): smaller chunks would not be cut any finer.
if (
  chunkBytes !== undefined &&
  (!Number.isSafeInteger(chunkBytes) || chunkBytes < 65_536)
) {
  console.error('--chunk-bytes must be a whole number of bytes, at least 65536')
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

const engine = new Engine({ dataDir: values['data-dir'] ?? './.sluice-engine' })
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
  secret: values.secret,
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
  if (!isLoopback(host) && !values.secret)
    console.warn(
      `warning: listening on ${host} without --secret: anyone who can reach it can read every table the database role can read. Pass --secret, or --host 127.0.0.1.`,
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
