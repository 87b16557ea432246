// The /api/v1/sources/:id actions: name, project and environment, restart (or clear the cache) and delete (or
// forget), mounted by the sources router (sources.ts). Every call checks membership first:
// another team's source answers exactly like a missing one.
import { sourceCalls } from '../../shared/api-calls.ts'
import type { Context } from 'hono'
import {
  restartSourceRequestSchema,
  SOURCE_EVENTS,
} from '../../shared/sources.ts'
import type { AppEnv } from '../platform/http/context.ts'
import { readJson } from '../platform/http/json.ts'
import {
  forgetSource,
  logSourceAction,
  markSourceDeleted,
  type SourceEvent,
  updateSource,
} from './actions.ts'
import { forwardAction } from '../cluster/forward.ts'
import { memberSource, notRunning, sourceNotFound } from './member-source.ts'

type C = Context<AppEnv>

/**
 * PATCH /:id: name, project and environment, each when sent. Any member may change them, on a
 * deleted source too: they are only labels.
 */
export async function updateRoute(c: C) {
  const source = await memberSource(c)
  if (!source) return sourceNotFound(c)
  const body = await readJson(c, sourceCalls.update.request)
  if (!body.success) return body.response
  const updated = await updateSource(c.var.deps.db, source.id, body.data)
  // Forgotten or removed since the membership check.
  if (!updated) return sourceNotFound(c)
  return c.json({ id: source.id, ...updated.labels, txid: updated.txid })
}

/** POST /:id/restart, with `clear_cache` to clear the shapes instead. */
export async function restartRoute(c: C) {
  const source = await memberSource(c)
  if (!source) return sourceNotFound(c)
  const forwarded = await forwardAction(c, source.id)
  if (forwarded) return forwarded
  // The dashboard always sends a body; a bare POST means a plain restart.
  const body =
    c.req.header('content-type') === undefined
      ? { success: true as const, data: restartSourceRequestSchema.parse({}) }
      : await readJson(c, sourceCalls.restart.request)
  if (!body.success) return body.response
  const runtime = c.var.deps.sources
  let event: SourceEvent
  if (source.deleted_at) {
    // A deleted source has no shapes left to clear: its 'Retry clear cache' retries
    // what is still pending, the removal of its slot and publication.
    runtime.retryRemoval(source.id)
    event = { name: SOURCE_EVENTS.deleteRequested, details: { retry: true } }
  } else if (body.data.clear_cache) {
    const shapes = await runtime.clearCache(source.id)
    if (shapes === null) return notRunning(c)
    event = { name: SOURCE_EVENTS.cacheCleared, details: { shapes } }
  } else {
    if (!(await runtime.restart(source.id))) return notRunning(c)
    event = { name: SOURCE_EVENTS.restarted, details: {} }
  }
  const txid = await logSourceAction(
    c.var.deps.db,
    source.id,
    event,
    runtime.instanceId,
  )
  return c.json({ id: source.id, txid })
}

/** DELETE /:id; with `force_delete=true`, forgets a source in error without touching its database. */
export async function deleteRoute(c: C) {
  const source = await memberSource(c)
  if (!source) return sourceNotFound(c)
  const forwarded = await forwardAction(c, source.id)
  if (forwarded) return forwarded
  const runtime = c.var.deps.sources
  if (c.req.query('force_delete') === 'true') {
    const txid = await forgetSource(c.var.deps.db, source.id)
    if (txid === null)
      return c.json(
        {
          message:
            'Only a source in error can be forgotten. Delete it normally so its replication slot is removed.',
        },
        409,
      )
    // The engine lets go of it (never touching the user's database) on its next look.
    runtime.kick()
    return c.json({ id: source.id, txid })
  }
  const txid = await markSourceDeleted(
    c.var.deps.db,
    source.id,
    runtime.instanceId,
  )
  runtime.kick()
  return c.json({ id: source.id, txid })
}
