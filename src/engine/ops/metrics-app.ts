// The metrics port's whole app: GET /metrics and nothing else. It listens apart from the
// product's port (the server's index.ts, the engine's cli.ts), so it is never behind the public
// proxy by accident.
import { Hono } from 'hono'
import type { Metrics } from './metrics.ts'

export function metricsApp(metrics: Metrics): Hono {
  const app = new Hono()
  app.get('/metrics', async (c) => {
    const { contentType, body } = await metrics.scrape()
    return c.body(body, 200, { 'content-type': contentType })
  })
  app.notFound((c) => c.text('Not found: metrics are at /metrics\n', 404))
  return app
}
