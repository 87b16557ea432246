// GET /api/v1/sources/:id/shapes (the live shapes with their figures), /:id/metrics?window=
// (the source's points over the last hour, day or week) and /:id/invalidations (why shapes
// were rotated): reads of the control plane's rows, so any server answers them, whichever
// holds the source. Members of the source's team, or its team's API token; 404 otherwise.
import type { Context } from 'hono'
import { z } from 'zod'
import { METRIC_WINDOWS } from '../../../shared/source-metrics.ts'
import type { AppEnv } from '../../platform/http/context.ts'
import { readQuery } from '../../platform/http/json.ts'
import { memberSource, sourceNotFound } from '../member-source.ts'
import { listInvalidations, listLiveShapes, listMetricPoints } from './reads.ts'

type C = Context<AppEnv>

const metricsQuery = z.object({
  window: z
    .enum(Object.keys(METRIC_WINDOWS) as [keyof typeof METRIC_WINDOWS])
    .default('hour'),
})

export async function liveShapesRoute(c: C) {
  const source = await memberSource(c)
  if (!source) return sourceNotFound(c)
  return c.json(await listLiveShapes(c.var.deps.db, source.id))
}

export async function metricsRoute(c: C) {
  const query = readQuery(c, metricsQuery)
  if (!query.success) return query.response
  const { window } = query.data
  const source = await memberSource(c)
  if (!source) return sourceNotFound(c)
  const points = await listMetricPoints(c.var.deps.db, source.id, window)
  return c.json({ window, points })
}

export async function invalidationsRoute(c: C) {
  const source = await memberSource(c)
  if (!source) return sourceNotFound(c)
  return c.json(await listInvalidations(c.var.deps.db, source.id))
}
