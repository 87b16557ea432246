// Deleting, forgetting and restarting a source through /api/v1/sources/:id: the slot and
// publication leave the user's database, the row and shape logs leave ours; an unreachable
// database settles in error so the user can forget it; other teams see nothing (404).
import { existsSync } from 'node:fs'
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { replicationNames } from '../../src/engine/replication/names.ts'
import {
  startEmbeddedPostgres,
  type RunningPostgres,
} from '../../src/server/platform/db/embedded-postgres.ts'
import { signInLocally, type Browser } from '../support/app.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import {
  createSourceDatabase,
  eventNames,
  insertSource,
  personalTeam,
  sourceRow,
  startSourceServer,
  type SourceDatabase,
  type SourceServer,
} from '../support/sources.ts'

const control = useControlPlaneDatabase()
let server: SourceServer
let owner: Browser
let teamId: string
const databases: SourceDatabase[] = []

beforeAll(async () => {
  // Failed removals are retried at every poll, so the test sees retries add nothing.
  server = await startSourceServer(control.db, { dropRetryMs: 0 })
  const signedIn = await signInLocally(server.app)
  owner = signedIn.browser
  teamId = await personalTeam(control.db, signedIn.user.id)
}, 60_000)

afterAll(async () => {
  await server?.stop()
  for (const database of databases) await database.drop()
})

async function activeSource(database?: SourceDatabase) {
  const db = database ?? (await createSourceDatabase())
  if (!database) databases.push(db)
  const source = await insertSource(control.db, server.key, teamId, db.url)
  await vi.waitFor(
    async () =>
      expect((await sourceRow(control.db, source.id))?.state).toBe('active'),
    { timeout: 20_000, interval: 50 },
  )
  return { database: db, ...source }
}

const remove = (browser: Browser, id: string, force = false) =>
  browser.request(`/api/v1/sources/${id}${force ? '?force_delete=true' : ''}`, {
    method: 'DELETE',
    headers: { origin: browser.origin },
  })

async function replicationObjects(database: SourceDatabase, id: string) {
  const { slot, publication } = replicationNames(id)
  const { rows } = await database.admin.query<{ n: number }>(
    `select (select count(*) from pg_replication_slots where slot_name = $1)
          + (select count(*) from pg_publication where pubname = $2) as n`,
    [slot, publication],
  )
  return Number(rows[0]?.n)
}

describe('deleting a source', () => {
  it('removes the slot and publication, then the shape logs and the row', async () => {
    const { database, id, secret } = await activeSource()
    await database.db.query('create table things (id int primary key)')
    const shape = await fetch(
      `${server.origin}/v1/shape?table=things&offset=-1&source_id=${id}&source_secret=${secret}`,
    )
    expect(shape.status).toBe(200)
    const logs = join(server.dataDir, 'databases', id)
    expect(await readdir(join(logs, 'shapes'))).toHaveLength(1)
    expect(await replicationObjects(database, id)).toBe(2)

    const response = await remove(owner, id)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ id, txid: expect.any(Number) })
    await expect
      .poll(() => sourceRow(control.db, id), { timeout: 20_000 })
      .toBeNull()
    expect(await replicationObjects(database, id)).toBe(0)
    expect(existsSync(logs)).toBe(false)
    expect(await eventNames(control.db, id)).toEqual([])
  }, 60_000)

  describe('of a database that was stopped', () => {
    let root: string
    let postgres: RunningPostgres | null = null

    beforeAll(async () => {
      root = await mkdtemp(join(tmpdir(), 'sluice-stopped-source-'))
      await chmod(root, 0o755)
      postgres = await startEmbeddedPostgres({ dir: join(root, 'pg') })
    }, 60_000)

    afterAll(async () => {
      await postgres?.stop()
      await rm(root, { recursive: true, force: true })
    })

    it('fails to delete: error, deleted_at kept, delete_failed; then forget removes it', async () => {
      const database = await createSourceDatabase(postgres?.urlFor('postgres'))
      const { id } = await activeSource(database)
      await database.db.end()
      await database.admin.end()
      await postgres?.stop()
      postgres = null

      expect((await remove(owner, id)).status).toBe(200)
      await expect
        .poll(async () => (await sourceRow(control.db, id))?.state, {
          timeout: 20_000,
        })
        .toBe('error')
      const row = await sourceRow(control.db, id)
      expect(row?.deleted_at).not.toBeNull()
      expect(row?.state_reason).toContain('could not be removed')
      const events = await eventNames(control.db, id)
      expect(events).toContain('delete_requested')
      expect(events.filter((e) => e === 'delete_failed')).toHaveLength(1)
      // Retries do not add events while nothing changes.
      await server.runtime.reconcile()
      await server.runtime.reconcile()
      expect(
        (await eventNames(control.db, id)).filter((e) => e === 'delete_failed'),
      ).toHaveLength(1)

      // 'Retry clear cache' of a deleted source retries the removal: still unreachable.
      const retried = await owner.postJson(`/api/v1/sources/${id}/restart`, {
        clear_cache: true,
      })
      expect(retried.status).toBe(200)
      expect(await retried.json()).toEqual({ id, txid: expect.any(Number) })
      await server.runtime.reconcile()
      expect((await sourceRow(control.db, id))?.state).toBe('error')
      const { rows: retries } = await control.db.query<{ details: unknown }>(
        `select event_details as details from source_event_logs
          where source_id = $1 and event_name = 'delete_requested'
          order by emitted_at`,
        [id],
      )
      expect(retries.map((r) => r.details)).toEqual([{}, { retry: true }])

      const forgotten = await remove(owner, id, true)
      expect(forgotten.status).toBe(200)
      expect(await forgotten.json()).toEqual({ id, txid: expect.any(Number) })
      expect(await sourceRow(control.db, id)).toBeNull()
      // The engine lets go without touching the (unreachable) database.
      await expect
        .poll(() => existsSync(join(server.dataDir, 'databases', id)))
        .toBe(false)
    }, 60_000)
  })

  it('refuses to forget an active source: 409, delete it normally', async () => {
    const { id } = await activeSource()
    const response = await remove(owner, id, true)
    expect(response.status).toBe(409)
    expect(((await response.json()) as { message: string }).message).toMatch(
      /Delete it normally/,
    )
    expect((await sourceRow(control.db, id))?.state).toBe('active')
  }, 60_000)
})

describe('another team', () => {
  it('gets 404 on delete, forget and restart, exactly like a missing source', async () => {
    const { id } = await activeSource()
    const { browser: stranger } = await signInLocally(server.app, 'Mallory')
    const missing = crypto.randomUUID()
    for (const target of [id, missing, 'not-a-uuid']) {
      for (const response of [
        await remove(stranger, target),
        await remove(stranger, target, true),
        await stranger.postJson(`/api/v1/sources/${target}/restart`, {
          clear_cache: true,
        }),
      ]) {
        expect(response.status).toBe(404)
        expect(await response.json()).toEqual({ message: 'Source not found' })
      }
    }
    const row = await sourceRow(control.db, id)
    expect(row?.deleted_at).toBeNull()
    expect(row?.state).toBe('active')
  }, 60_000)

  it('needs a session at all: 401 without one', async () => {
    const response = await fetch(
      `${server.origin}/api/v1/sources/${crypto.randomUUID()}`,
      { method: 'DELETE', headers: { origin: server.origin } },
    )
    expect(response.status).toBe(401)
  })
})
