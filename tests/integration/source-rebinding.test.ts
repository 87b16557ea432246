// DNS rebinding through a stored source: a source's host name is resolved and checked on every
// connection the server makes to it (replication, setup, pool, removal), not just when it was
// added. The name used here resolves only through the resolver the tests control, which
// plays the attacker's DNS: a public answer at creation, an inner one afterwards.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Engine } from '../../src/engine/engine.ts'
import { createEngineApp } from '../../src/engine/http/app.ts'
import { ADDRESS_REFUSED } from '../../src/engine/pg/pinned-socket.ts'
import { replicationNames } from '../../src/engine/replication/names.ts'
import { guardSourceUrl } from '../../src/server/sources/create/create-checks.ts'
import { sourceHostPinner } from '../../src/server/sources/runtime/pin-host.ts'
import type { Resolver } from '../../src/server/validation/guard.ts'
import { signInLocally } from '../support/app.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import {
  createSourceDatabase,
  insertSource,
  personalTeam,
  sourceRow,
  startSourceServer,
  type SourceDatabase,
  type SourceServer,
} from '../support/sources.ts'

const NAME = 'db.rebind.test'
const PUBLIC = '93.184.216.34'
const METADATA = '169.254.169.254'
const REFUSED =
  /^The database host resolves to an address Sluice may not connect to/

const control = useControlPlaneDatabase()
let server: SourceServer
let teamId: string
const databases: SourceDatabase[] = []

// The attacker's DNS: answers queued for the next lookups, then `later` for every other one.
const dns = {
  queued: [] as string[][],
  later: ['127.0.0.1'],
  asked: 0,
}
const resolve: Resolver = async (host) => {
  if (host !== NAME) throw new Error(`unexpected lookup of ${host}`)
  dns.asked += 1
  return dns.queued.shift() ?? dns.later
}
// Hosted mode refuses loopback; a self-hosted Sluice allows it. Each test picks.
const policy = { allowPrivate: false }
const pinHost = (host: string) =>
  sourceHostPinner({ allowPrivate: policy.allowPrivate, resolve })(host)

beforeAll(async () => {
  server = await startSourceServer(control.db, { pinHost })
  const { user } = await signInLocally(server.app)
  teamId = await personalTeam(control.db, user.id)
}, 60_000)

afterAll(async () => {
  await server?.stop()
  for (const database of databases) await database.drop()
})

/** The database's URL with its host replaced by the rebinding name. */
function rebindingUrl(database: SourceDatabase): string {
  const url = new URL(database.url)
  url.hostname = NAME
  return url.toString()
}

async function newDatabase() {
  const database = await createSourceDatabase()
  databases.push(database)
  return database
}

const stateOf = async (id: string) => (await sourceRow(control.db, id))?.state

/** Everything a user can read about the source: its reason and every event's details. */
async function whatUsersSee(id: string): Promise<string> {
  const { rows } = await control.db.query<{ text: string }>(
    `select coalesce(s.state_reason, '') || ' ' ||
            coalesce((select string_agg(event_details::text, ' ')
                        from source_event_logs where source_id = s.id), '') as text
       from sources s where s.id = $1`,
    [id],
  )
  return rows[0]?.text ?? ''
}

function expectNoAddressOrErrno(text: string, port: string) {
  expect(text).not.toMatch(/127\.0\.0\.1|169\.254|ECONN|ETIMEDOUT|EHOST/)
  expect(text).not.toContain(port)
}

async function slotExists(database: SourceDatabase, slot: string) {
  const { rows } = await database.admin.query(
    'select 1 from pg_replication_slots where slot_name = $1',
    [slot],
  )
  return rows.length === 1
}

describe('a source whose host name is rebound', () => {
  it('is refused when the name that was public at creation now resolves to loopback', async () => {
    policy.allowPrivate = false
    const database = await newDatabase()
    const url = rebindingUrl(database)
    // Creation: the name answers a public address, so the create API's guard lets it in.
    dns.queued.push([PUBLIC])
    dns.later = ['127.0.0.1']
    const admitted = await guardSourceUrl(url, {
      allowPrivate: false,
      resolve,
    })
    expect(admitted.ok).toBe(true)
    const asked = dns.asked
    const { id } = await insertSource(control.db, server.key, teamId, url)

    await expect.poll(() => stateOf(id), { timeout: 20_000 }).toBe('error')
    const row = await sourceRow(control.db, id)
    expect(row?.state_reason).toMatch(REFUSED)
    expect(dns.asked).toBeGreaterThan(asked)
    expectNoAddressOrErrno(await whatUsersSee(id), new URL(url).port)
    // Nothing reached the database: the slot was never made.
    expect(await slotExists(database, replicationNames(id).slot)).toBe(false)
  }, 60_000)

  it('is checked again on each reconnect, and removal is refused too', async () => {
    policy.allowPrivate = true // a self-hosted Sluice: loopback is fine, metadata never
    dns.later = ['127.0.0.1']
    const database = await newDatabase()
    const url = rebindingUrl(database)
    const { id } = await insertSource(control.db, server.key, teamId, url)
    await expect.poll(() => stateOf(id), { timeout: 20_000 }).toBe('active')
    const { slot } = replicationNames(id)

    dns.later = [METADATA]
    await database.admin.query(
      `select pg_terminate_backend(active_pid) from pg_replication_slots
        where slot_name = $1 and active_pid is not null`,
      [slot],
    )
    await expect.poll(() => stateOf(id), { timeout: 20_000 }).toBe('error')
    expect((await sourceRow(control.db, id))?.state_reason).toMatch(REFUSED)
    expectNoAddressOrErrno(await whatUsersSee(id), new URL(url).port)

    // Removal connects too: refused, the slot stays, and the reason says why.
    await control.db.query(
      'update sources set deleted_at = now() where id = $1',
      [id],
    )
    await server.runtime.reconcile()
    await expect
      .poll(async () => (await sourceRow(control.db, id))?.state_reason, {
        timeout: 20_000,
      })
      .toMatch(/could not be removed/)
    const reason = (await sourceRow(control.db, id))?.state_reason ?? ''
    expect(reason).toContain('resolves to an address Sluice may not connect to')
    expect(await slotExists(database, slot)).toBe(true)
    expectNoAddressOrErrno(await whatUsersSee(id), new URL(url).port)

    // Once the name points at an allowed address again, the removal goes through.
    dns.later = ['127.0.0.1']
    server.runtime.retryRemoval(id)
    await expect
      .poll(() => sourceRow(control.db, id), { timeout: 20_000 })
      .toBeNull()
    expect(await slotExists(database, slot)).toBe(false)
  }, 60_000)

  it("pins each new connection of the engine's query pool", async () => {
    policy.allowPrivate = true
    dns.later = ['127.0.0.1']
    const database = await newDatabase()
    await database.db.query('create table items (id int primary key)')
    const dataDir = await mkdtemp(join(tmpdir(), 'sluice-rebind-'))
    const engine = new Engine({ dataDir })
    try {
      const attached = engine.attach(
        `rebind_${Date.now()}`,
        rebindingUrl(database),
        { pinHost },
      )
      const { pool } = attached
      await expect
        .poll(() => attached.status, { timeout: 20_000 })
        .toBe('active')
      await pool.query('select 1')
      // The idle connection is held, so the next query needs a new one: looked up again.
      const held = await pool.connect()
      dns.later = [METADATA]
      await expect(pool.query('select 1')).rejects.toMatchObject({
        code: ADDRESS_REFUSED,
      })
      // A shape that needs a new connection answers 503 in words that name nothing.
      const shapes = createEngineApp({ database: attached })
      const answer = await shapes.request('/v1/shape?table=items&offset=-1')
      expect(answer.status).toBe(503)
      expect(await answer.json()).toEqual({
        message: 'The database is unreachable',
      })
      held.release()
      // The connection made before the rebinding stays usable (it is to the pinned address).
      await expect(pool.query('select 1')).resolves.toBeDefined()
      dns.later = ['127.0.0.1']
      await engine.remove(attached.config.id)
    } finally {
      dns.later = ['127.0.0.1']
      await engine.stop()
      await rm(dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})
