// GET /api/v1/sources/:id/shapes/:handle/timeline: the Shape Inspector's timeline, the points
// of a live shape's log a client can read from (the engine's shapeTimeline), each with the
// offset to ask its messages with. Read only, under the same authorization as the messages
// (messages-route.ts): the team's members or its API token, another team's source a 404.
import type { Context } from 'hono'
import { shapeHandleSchema } from '../../../shared/sources.ts'
import type { AppEnv } from '../../platform/http/context.ts'
import { forwardAction } from '../../cluster/forward.ts'
import { memberSource, sourceNotFound } from '../member-source.ts'
import { nothingToRead, shapeNotFound } from './messages-route.ts'

type C = Context<AppEnv>

export async function shapeTimelineRoute(c: C) {
  const source = await memberSource(c)
  if (!source) return sourceNotFound(c)
  const forwarded = await forwardAction(c, source.id)
  if (forwarded) return forwarded
  const handle = shapeHandleSchema.safeParse(c.req.param('handle'))
  if (!handle.success || source.deleted_at) return shapeNotFound(c)
  const read = c.var.deps.sources.shapeTimeline(source.id, handle.data)
  if (read.kind !== 'timeline') return nothingToRead(c, read.kind)
  return c.json({ points: read.points, truncated: read.truncated })
}
