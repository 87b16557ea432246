// `npm run engine`: one database served as an Electric-compatible shape API (USAGE below). It
// reads Electric's environment variables where it has the same setting (config/electric-config.ts,
// described in cli-variables.ts), so an Electric deployment's environment carries over; the
// options below win over them.
import { accessSync, constants } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { parseArgs } from 'node:util'
import { readEngineConfig } from './config/electric-config.ts'
import { Engine } from './engine.ts'
import { createEngineServer } from './http/node-listener.ts'
import { serveStandaloneMetrics } from './ops/standalone-metrics.ts'
import { preferIpv6 } from './pg/prefer-ipv6.ts'
import { electricNames } from './replication/names.ts'
import { resolveStandaloneNames } from './replication/standalone-names.ts'
import { readSecretOption, type SecretOption } from './secret-option.ts'

const USAGE = `Usage: npm run engine -- [options]

  --database-url-file PATH  the database's postgres:// URL, read from a file
                            (or DATABASE_URL in the environment; --database-url URL also
                            works, but shows the password in ps to every user of the machine)
  --secret-file PATH        the secret every request must carry as ?secret=, read from a file
                            (or ELECTRIC_SECRET; --secret S shows it in ps)
  --port 3000               the port to listen on (or ELECTRIC_PORT)
  --host ADDRESS            the address to listen on: by default every interface when a
                            secret is set (or ELECTRIC_INSECURE=true), else 127.0.0.1
  --allow-shape-deletion    let DELETE /v1/shape rotate a shape
                            (or ELECTRIC_ENABLE_INTEGRATION_TESTING=true)
  --chunk-bytes 10485760    where log answers end, at least 10000
                            (or ELECTRIC_SHAPE_CHUNK_BYTES_THRESHOLD)
  --data-dir ./.sluice-engine  where shape logs live (or ELECTRIC_STORAGE_DIR)
  --help                    show this help

Electric's other variables it implements, and METRICS_PORT, are in docs/configuration.md.`

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
    port: { type: 'string' },
    host: { type: 'string' },
    secret: { type: 'string' },
    'secret-file': { type: 'string' },
    'allow-shape-deletion': { type: 'boolean' },
    'chunk-bytes': { type: 'string' },
    'data-dir': { type: 'string' },
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

const read = readEngineConfig(
  process.env,
  {
    port: values.port,
    host: values.host,
    allowShapeDeletion: values['allow-shape-deletion'],
    chunkBytes: values['chunk-bytes'],
    dataDir: values['data-dir'],
  },
  { databaseUrl: secretOf(DATABASE_URL), secret: secretOf(SECRET) },
)
if (!read.ok) {
  for (const error of read.errors) console.error(error)
  process.exit(1)
}
const { config } = read
for (const line of read.notices) console.warn(line)
// The CA file is read by pg on every connect: a path it cannot read fails here, named.
const caFile = config.caCertificateFile
if (caFile !== undefined) {
  try {
    accessSync(caFile, constants.R_OK)
  } catch {
    console.error(
      `ELECTRIC_DATABASE_CA_CERTIFICATE_FILE: cannot read ${caFile}`,
    )
    process.exit(1)
  }
}

const engine = new Engine({
  dataDir: config.storageDir,
  log: (line) => console.warn(line),
})
// No address guard: the operator running this names the database, loopback or not. Only
// ELECTRIC_DATABASE_USE_IPV6 picks the address family.
const ID = 'standalone'
const database = engine.attach(ID, config.databaseUrl, {
  ...(config.preferIpv6 ? { pinHost: preferIpv6 } : {}),
  maxShapes: config.maxShapes,
  replicationIdleTimeoutMs: config.replicationIdleTimeoutMs,
  connection: {
    poolConnectionString: config.poolUrl,
    poolSize: config.poolSize,
    names:
      config.replicationStreamId === null
        ? resolveStandaloneNames
        : electricNames(config.replicationStreamId),
    manualPublishing: config.manualTablePublishing,
  },
  events: {
    onStatus: (status, reason) => {
      console.log(`database ${status}${reason ? `: ${reason}` : ''}`)
      if (status === 'active') metrics?.measure()
    },
  },
})
const server = createEngineServer({
  database,
  secret: config.secret,
  allowShapeDeletion: config.allowShapeDeletion,
  chunkBytes: config.chunkBytes,
  longPollMs: config.longPollMs,
  cacheMaxAge: config.cacheMaxAge,
  cacheStaleAge: config.cacheStaleAge,
  maxConcurrentRequests: config.maxConcurrentRequests,
})
const { host } = config
server.listen(config.port, host, () => {
  const info = server.address() as AddressInfo
  console.log(
    `Sluice engine serving the shape API on http://${shownHost(host)}:${info.port}/v1/shape`,
  )
  if (!isLoopback(host) && !config.secret && !config.insecure)
    console.warn(
      `warning: listening on ${host} without --secret: anyone who can reach it can read every table the database role can read. Pass --secret-file (or ELECTRIC_SECRET), or --host 127.0.0.1.`,
    )
})
// Declared after the database it reads; its status callback runs only once this is set.
const metrics =
  config.metrics === null
    ? null
    : serveStandaloneMetrics({
        id: ID,
        database,
        port: config.metrics.port,
        host: config.metrics.host,
        onListening: (port) =>
          console.log(
            `metrics on http://${shownHost(config.metrics?.host ?? '')}:${port}/metrics`,
          ),
      })

function isLoopback(name: string): boolean {
  return name === 'localhost' || name === '::1' || /^127\./.test(name)
}

function shownHost(name: string): string {
  return name.includes(':') ? `[${name}]` : name
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
