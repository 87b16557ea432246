// `npm run engine -- --database-url <url> [--port 3000] [--secret s] [--allow-shape-deletion]
// [--data-dir ./.sluice-engine]`: one database served as an Electric-compatible shape API.
import { serve } from '@hono/node-server'
import { parseArgs } from 'node:util'
import { Engine } from './engine.ts'
import { createEngineApp } from './http/app.ts'

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    port: { type: 'string', default: '3000' },
    secret: { type: 'string' },
    'allow-shape-deletion': { type: 'boolean', default: false },
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

const engine = new Engine({ dataDir: values['data-dir'] ?? './.sluice-engine' })
// No address guard (no pinHost): the operator running this names the database, loopback or not.
const database = engine.attach('standalone', url, {
  events: {
    onStatus: (status, reason) =>
      console.log(`database ${status}${reason ? `: ${reason}` : ''}`),
  },
})
const app = createEngineApp({
  database,
  secret: values.secret,
  allowShapeDeletion: values['allow-shape-deletion'],
})
const server = serve({ fetch: app.fetch, port }, (info) =>
  console.log(
    `Sluice engine serving the shape API on http://localhost:${info.port}/v1/shape`,
  ),
)
const shutdown = () => {
  server.close()
  engine.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  )
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
