// What every /api/v1/sources/:id route starts with: the source, when the signed-in user is a
// member of its team, or the request's API token is that team's (auth/viewer.ts). Another
// team's source answers exactly like a missing one (404), and a source this server does not
// run yet answers 503 with a retry-after.
import type { Context } from 'hono'
import { idSchema } from '../../shared/entities.ts'
import { findMemberSource, getSource } from './sources.ts'
import { viewerOf } from '../auth/viewer.ts'
import type { AppEnv } from '../platform/http/context.ts'

type C = Context<AppEnv>

const NOT_FOUND = { message: 'Source not found' }
const RETRY_AFTER_SECONDS = '5'

export async function memberSource(c: C) {
  const id = idSchema.safeParse(c.req.param('id'))
  if (!id.success) return null
  return findMemberSource(c.var.deps.db, viewerOf(c), id.data)
}

/** The whole source (as GET /api/v1/sources lists it), when the caller may see it. */
export async function viewableSource(c: C) {
  const id = idSchema.safeParse(c.req.param('id'))
  if (!id.success) return null
  return getSource(c.var.deps.db, viewerOf(c), id.data)
}

export const sourceNotFound = (c: C) => c.json(NOT_FOUND, 404)

export const notRunning = (c: C) =>
  c.json(
    {
      message:
        'The source is not running on this server yet. Try again shortly.',
    },
    503,
    { 'retry-after': RETRY_AFTER_SECONDS },
  )
