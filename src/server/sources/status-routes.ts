// GET /api/public/source-status/:sourceId: a source's state as a public shape, for its status
// page. No session: the visitor need not be signed in, so the shape carries only what derives
// the displayed state (never secrets, URLs or team data), and caches may keep it as the
// protocol intends.
import { Hono } from 'hono'
import { jsonResponse } from '../../engine/index.ts'
import { idSchema } from '../../shared/entities.ts'
import { controlShape, serveControlShape } from '../gateway/control-shape.ts'
import type { AppEnv } from '../platform/http/context.ts'

/** A source's public status shape (also watched: gateway/watch.ts). */
export const sourceStatus = (sourceId: string) =>
  controlShape('sources', 'id = $1', sourceId, [
    'id',
    'state',
    'deleted_at',
    'target_electric_url',
  ])

export const sourceStatusRoutes = new Hono<AppEnv>().get(
  '/:sourceId',
  async (c) => {
    const id = idSchema.safeParse(c.req.param('sourceId'))
    if (!id.success) return jsonResponse(404, { message: 'Not found' })
    return serveControlShape(c, sourceStatus(id.data), c.req.raw.signal, false)
  },
)
