// /api/v1/sources: the signed-in user's (or a team API token's) sources over REST. Listing and
// reading one (/:id) serve API clients (the dashboard reads sources through its shapes); adding
// is create/routes.ts, the /:id actions (name, project and environment, restart or clear the
// cache, delete or forget) action-routes.ts, the shape explorer's reads of a source's database
// (/:id/schema, /:id/count) explorer/routes.ts, deleting one of its live shapes
// (/:id/shapes/:handle) live-shapes/routes.ts, the Shape Inspector's read of one
// (/:id/shapes/:handle/messages, /timeline) inspector/, its secret (/:id/secret,
// /:id/rotate-secret, /:id/previous-secret) secret-routes.ts, and its figures (/:id/shapes,
// /:id/metrics, /:id/invalidations) metrics/routes.ts.
import { Hono } from 'hono'
import { requireUser } from '../auth/middleware.ts'
import { listSources } from './sources.ts'
import { viewerOf } from '../auth/viewer.ts'
import type { AppEnv } from '../platform/http/context.ts'
import type { RateLimiter } from '../platform/http/rate-limit.ts'
import type { DatabaseCheckSettings } from '../validation/settings.ts'
import { deleteRoute, restartRoute, updateRoute } from './action-routes.ts'
import { createSourceRoute } from './create/routes.ts'
import { countRoute, schemaRoute } from './explorer/routes.ts'
import { deleteShapeRoute } from './live-shapes/routes.ts'
import { shapeMessagesRoute } from './inspector/messages-route.ts'
import { shapeTimelineRoute } from './inspector/timeline-route.ts'
import {
  invalidationsRoute,
  liveShapesRoute,
  metricsRoute,
} from './metrics/routes.ts'
import {
  endSecretGraceRoute,
  rotateSecretRoute,
  secretRoute,
} from './secret-routes.ts'
import { sourceNotFound, viewableSource } from './member-source.ts'

/** `creates`: the rate of creates, counted per user and per team. */
export function sourceRoutes(
  settings: DatabaseCheckSettings,
  creates: RateLimiter,
) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .get('/', async (c) =>
      c.json(await listSources(c.var.deps.db, viewerOf(c))),
    )
    .put('/', createSourceRoute(settings, creates))
    .get('/:id', async (c) => {
      const source = await viewableSource(c)
      return source ? c.json(source) : sourceNotFound(c)
    })
    .patch('/:id', updateRoute)
    .post('/:id/restart', restartRoute)
    .delete('/:id', deleteRoute)
    .get('/:id/schema', schemaRoute)
    .get('/:id/count', countRoute)
    .get('/:id/shapes', liveShapesRoute)
    .delete('/:id/shapes/:handle', deleteShapeRoute)
    .get('/:id/shapes/:handle/messages', shapeMessagesRoute)
    .get('/:id/shapes/:handle/timeline', shapeTimelineRoute)
    .get('/:id/metrics', metricsRoute)
    .get('/:id/invalidations', invalidationsRoute)
    .get('/:id/secret', secretRoute)
    .post('/:id/rotate-secret', rotateSecretRoute)
    .delete('/:id/previous-secret', endSecretGraceRoute)
}
