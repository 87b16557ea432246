// GET /api/v1/sources/:id/secret, POST /api/v1/sources/:id/rotate-secret and DELETE
// /api/v1/sources/:id/previous-secret: the secrets that open the source, a new one with the old
// kept for SECRET_ROTATION_GRACE, and that grace ended early. Members (and the team's API
// tokens) only; another team's source answers exactly like a missing one.
import type { Context } from 'hono'
import type { AppEnv } from '../platform/http/context.ts'
import {
  memberSource,
  sourceNotFound,
  viewableSource,
} from './member-source.ts'
import { endSecretGrace, rotateSecret } from './secrets.ts'

type C = Context<AppEnv>

const deleted = (c: C) =>
  c.json({ message: 'The source is deleted: its secret opens nothing' }, 409)

/** The current secret, and the previous one with its end while its grace lasts. */
export async function secretRoute(c: C) {
  const source = await viewableSource(c)
  if (!source) return sourceNotFound(c)
  const until = source.previous_secret_valid_until
  const inGrace = until !== null && Date.parse(until) > Date.now()
  return c.json({
    id: source.id,
    source_secret: source.source_secret,
    previous_source_secret: inGrace ? source.previous_source_secret : null,
    previous_valid_until: inGrace ? until : null,
  })
}

export async function rotateSecretRoute(c: C) {
  const source = await memberSource(c)
  if (!source) return sourceNotFound(c)
  if (source.deleted_at) return deleted(c)
  const { deps } = c.var
  return c.json(
    await rotateSecret(
      deps.db,
      source.id,
      deps.env.SECRET_ROTATION_GRACE,
      deps.sources.instanceId,
    ),
  )
}

export async function endSecretGraceRoute(c: C) {
  const source = await memberSource(c)
  if (!source) return sourceNotFound(c)
  const { deps } = c.var
  const txid = await endSecretGrace(deps.db, source.id, deps.sources.instanceId)
  return c.json({ id: source.id, txid })
}
