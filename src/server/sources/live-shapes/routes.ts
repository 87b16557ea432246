// DELETE /api/v1/sources/:id/shapes/:handle: rotates one of the shapes the engine holds for a
// source (its clients get 409 and refetch a fresh snapshot) and removes it from the live
// shapes the dashboard syncs (sources/live-shapes.ts), answering that delete's txid. Members
// of the source's team only (404 otherwise, as every source route); a handle the server does
// not know is a 404 too.
import type { Context } from 'hono'
import { shapeHandleSchema } from '../../../shared/sources.ts'
import type { AppEnv } from '../../platform/http/context.ts'
import { forwardAction } from '../../cluster/forward.ts'
import { memberSource, notRunning, sourceNotFound } from '../member-source.ts'

type C = Context<AppEnv>

const shapeNotFound = (c: C) => c.json({ message: 'Shape not found' }, 404)

export async function deleteShapeRoute(c: C) {
  const source = await memberSource(c)
  if (!source) return sourceNotFound(c)
  const forwarded = await forwardAction(c, source.id)
  if (forwarded) return forwarded
  const handle = shapeHandleSchema.safeParse(c.req.param('handle'))
  // A source being deleted holds no shapes any more.
  if (!handle.success || source.deleted_at) return shapeNotFound(c)
  const runtime = c.var.deps.sources
  const deletion = await runtime.deleteShape(source.id, handle.data)
  if (deletion.kind === 'not_running') return notRunning(c)
  if (deletion.kind === 'unknown_shape') return shapeNotFound(c)
  return c.json({ id: source.id, handle: handle.data, txid: deletion.txid })
}
