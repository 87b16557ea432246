// POST /api/v1/sources/:id/rotate-secret and DELETE /api/v1/sources/:id/previous-secret: a new
// secret with the old one kept for SECRET_ROTATION_GRACE, and that grace ended early. Members
// only; another team's source answers exactly like a missing one.
import type { Context } from 'hono'
import type { AppEnv } from '../platform/http/context.ts'
import { memberSource, sourceNotFound } from './member-source.ts'
import { endSecretGrace, rotateSecret } from './secrets.ts'

type C = Context<AppEnv>

const deleted = (c: C) =>
  c.json({ message: 'The source is deleted: its secret opens nothing' }, 409)

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
