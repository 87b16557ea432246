// /api/v1/sources/:id actions: rename, restart (or clear the cache) and delete (or forget).
// Every call checks membership first: another team's source answers exactly like a missing one.
import { Hono, type Context } from 'hono'
import { idSchema } from '../../shared/entities.ts'
import {
  renameSourceRequestSchema,
  restartSourceRequestSchema,
  SOURCE_EVENTS,
  type SourceEventName,
} from '../../shared/sources.ts'
import { requireUser } from '../auth/middleware.ts'
import { transactionWithTxid } from '../control/database.ts'
import { findMemberSource, logSourceEvent } from '../control/sources.ts'
import type { AppEnv } from '../http/context.ts'
import { readJson } from '../http/json.ts'

const NOT_FOUND = { message: 'Source not found' }
const RETRY_AFTER_SECONDS = '5'

// States in which the engine has given up on the source: only then may its record be dropped
// without removing the slot first.
const FORGETTABLE = new Set(['error', 'delete_failed'])

async function memberSource(c: Context<AppEnv>) {
  const id = idSchema.safeParse(c.req.param('id'))
  if (!id.success) return null
  return findMemberSource(c.var.deps.db, c.var.user.id, id.data)
}

const notRunning = (c: Context<AppEnv>) =>
  c.json(
    {
      message:
        'The source is not running on this server yet. Try again shortly.',
    },
    503,
    { 'retry-after': RETRY_AFTER_SECONDS },
  )

export const sourceActionRoutes = new Hono<AppEnv>()
  .use(requireUser)
  // Any member may rename, a deleted source too: the name is only a label in the dashboard.
  .patch('/:id', async (c) => {
    const source = await memberSource(c)
    if (!source) return c.json(NOT_FOUND, 404)
    const body = await readJson(c, renameSourceRequestSchema)
    if (!body.success) return body.response
    const { name } = body.data
    const { txid } = await transactionWithTxid(c.var.deps.db, (client) =>
      client.query('update sources set name = $2 where id = $1', [
        source.id,
        name,
      ]),
    )
    return c.json({ id: source.id, name, txid })
  })
  .post('/:id/restart', async (c) => {
    const source = await memberSource(c)
    if (!source) return c.json(NOT_FOUND, 404)
    // The dashboard always sends a body; a bare POST means a plain restart.
    const body =
      c.req.header('content-type') === undefined
        ? { success: true as const, data: restartSourceRequestSchema.parse({}) }
        : await readJson(c, restartSourceRequestSchema)
    if (!body.success) return body.response
    const runtime = c.var.deps.sources
    if (!runtime) return notRunning(c)
    // A deleted source has no shapes left to clear: its 'Retry clear cache' (spec §4) retries
    // what is still pending, the removal of its slot and publication.
    if (source.deleted_at) {
      runtime.retryRemoval(source.id)
      const { txid } = await transactionWithTxid(c.var.deps.db, (client) =>
        logSourceEvent(
          client,
          source.id,
          SOURCE_EVENTS.deleteRequested,
          { retry: true },
          runtime.instanceId,
        ),
      )
      return c.json({ id: source.id, txid })
    }
    let event: { name: SourceEventName; details: Record<string, unknown> }
    if (body.data.clear_cache) {
      const shapes = await runtime.clearCache(source.id)
      if (shapes === null) return notRunning(c)
      event = { name: SOURCE_EVENTS.cacheCleared, details: { shapes } }
    } else {
      if (!(await runtime.restart(source.id))) return notRunning(c)
      event = { name: SOURCE_EVENTS.restarted, details: {} }
    }
    const { txid } = await transactionWithTxid(c.var.deps.db, (client) =>
      logSourceEvent(
        client,
        source.id,
        event.name,
        event.details,
        runtime.instanceId,
      ),
    )
    return c.json({ id: source.id, txid })
  })
  .delete('/:id', async (c) => {
    const source = await memberSource(c)
    if (!source) return c.json(NOT_FOUND, 404)
    const runtime = c.var.deps.sources
    if (c.req.query('force_delete') === 'true') {
      const { result: removed, txid } = await transactionWithTxid(
        c.var.deps.db,
        async (client) => {
          const { rowCount } = await client.query(
            `delete from sources where id = $1 and state = any($2)`,
            [source.id, [...FORGETTABLE]],
          )
          return rowCount === 1
        },
      )
      if (!removed)
        return c.json(
          {
            message:
              'Only a source in error can be forgotten. Delete it normally so its replication slot is removed.',
          },
          409,
        )
      // The engine lets go of it (never touching the user's database) on its next look.
      runtime?.kick()
      return c.json({ id: source.id, txid })
    }
    if (!runtime) return notRunning(c)
    const { txid } = await transactionWithTxid(
      c.var.deps.db,
      async (client) => {
        await client.query(
          `update sources set deleted_at = now() where id = $1 and deleted_at is null`,
          [source.id],
        )
        await logSourceEvent(
          client,
          source.id,
          SOURCE_EVENTS.deleteRequested,
          {},
          runtime.instanceId,
        )
      },
    )
    runtime.kick()
    return c.json({ id: source.id, txid })
  })
