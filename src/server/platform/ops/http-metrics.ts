// Counts every request by the route pattern that answered it (`/api/v1/sources/:id`, never the
// raw path, so the series stay bounded whatever clients ask for), its method and status.
import { createMiddleware } from 'hono/factory'
import { routePath } from 'hono/route'
import type { Metrics } from '../../../engine/index.ts'
import type { AppEnv } from '../http/context.ts'

// Anything else is counted under one label: methods are client input too.
const METHODS = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
])

export const httpMetrics = (metrics: Metrics) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now()
    await next()
    // The index Hono reached last is the handler (or middleware) that answered.
    const route = routePath(c)
    const method = METHODS.has(c.req.method) ? c.req.method : 'OTHER'
    const seconds = (performance.now() - started) / 1000
    metrics.observeRequest(route, method, c.res.status, seconds)
  })
