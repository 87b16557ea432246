// GET /api/v1/sources/:id/shapes/:handle/messages?offset=&limit=: the Shape Inspector's read,
// the messages a client reading the shape from `offset` receives, a page at a time (the
// engine's shapeMessages). Read only, and under the source's authorization: members of its
// team or its team's API token, another team's source a 404 like a missing one; a source
// another server runs is answered there (forwardAction).
import type { Context } from 'hono'
import { invalidBody } from '../../../engine/index.ts'
import {
  MAX_MESSAGES_LIMIT,
  shapeMessagesQuerySchema,
} from '../../../shared/shape-messages.ts'
import { shapeHandleSchema } from '../../../shared/sources.ts'
import type { AppEnv } from '../../platform/http/context.ts'
import { forwardAction } from '../../cluster/forward.ts'
import { memberSource, notRunning, sourceNotFound } from '../member-source.ts'

type C = Context<AppEnv>

export const shapeNotFound = (c: C) =>
  c.json({ message: 'Shape not found' }, 404)

/** What both Inspector reads (the messages, the timeline) answer when there is none to read. */
export function nothingToRead(
  c: C,
  kind: 'not_running' | 'unknown_shape' | 'not_ready',
) {
  if (kind === 'not_running') return notRunning(c)
  if (kind === 'unknown_shape') return shapeNotFound(c)
  return c.json({ message: 'The shape’s snapshot is not complete yet.' }, 503, {
    'retry-after': '1',
  })
}

const LIMIT_RULE = `must be a whole number from 1 to ${MAX_MESSAGES_LIMIT}`

export async function shapeMessagesRoute(c: C) {
  const source = await memberSource(c)
  if (!source) return sourceNotFound(c)
  const forwarded = await forwardAction(c, source.id)
  if (forwarded) return forwarded
  const query = shapeMessagesQuerySchema.safeParse({
    offset: c.req.query('offset'),
    limit: c.req.query('limit'),
  })
  if (!query.success) {
    const errors: Record<string, string[]> = {}
    for (const issue of query.error.issues)
      errors[String(issue.path[0])] = [
        issue.path[0] === 'limit' ? LIMIT_RULE : 'is not an offset',
      ]
    return c.json(invalidBody(errors), 400)
  }
  const handle = shapeHandleSchema.safeParse(c.req.param('handle'))
  if (!handle.success || source.deleted_at) return shapeNotFound(c)
  const { offset, limit } = query.data
  const read = c.var.deps.sources.shapeMessages(
    source.id,
    handle.data,
    offset,
    limit,
  )
  switch (read.kind) {
    case 'not_running':
    case 'unknown_shape':
    case 'not_ready':
      return nothingToRead(c, read.kind)
    case 'bad_offset':
      return c.json(invalidBody({ offset: [read.message] }), 400)
    case 'page':
      return c.json({
        messages: read.messages,
        next_offset: read.nextOffset,
        offset: read.offset,
        answers: read.answers,
      })
  }
}
