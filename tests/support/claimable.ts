// Claimable sources for the integration tests: a server with a real runtime (rare polls; tests
// kick it) serving a file's control plane, apps beside it that create claimable sources (one
// without a runtime, so a source stays pending until kicked; one past any rate limit), real
// source databases, and the calls a script and a browser make.
import type pg from 'pg'
import { afterAll, beforeAll, expect, vi } from 'vitest'
import { replicationNames } from '../../src/engine/replication/names.ts'
import { claimableSourceSchema } from '../../src/shared/claimable-sources.ts'
import { Browser, buildApp, keysWith, type App } from './app.ts'
import {
  createSourceDatabase,
  startSourceServer,
  type SourceDatabase,
  type SourceServer,
} from './sources.ts'

export const CLAIMABLE_PATH = '/api/public/v1/claimable-sources'

/** A script's POST through `app`: no cookie, no Origin. */
export const createThrough = (app: App, body: unknown) =>
  new Browser(app).request(CLAIMABLE_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

export const claim = (browser: Browser, claimId: string, teamId: string) =>
  browser.postJson(`${CLAIMABLE_PATH}/claim`, { claimId, teamId })

/** The slot and publication of source `id` on its database: 2 while they exist, 0 once gone. */
export async function replicationObjects(
  database: SourceDatabase,
  id: string,
): Promise<number> {
  const { slot, publication } = replicationNames(id)
  const { rows } = await database.admin.query<{ n: number }>(
    `select (select count(*) from pg_replication_slots where slot_name = $1)
          + (select count(*) from pg_publication where pubname = $2) as n`,
    [slot, publication],
  )
  return Number(rows[0]?.n)
}

/** Registers the hooks; read the fields inside tests. */
export function useClaimableServer(control: {
  readonly db: pg.Pool
  readonly url: string
}) {
  let server: SourceServer | undefined
  let quiet: App | undefined
  let scripts: App | undefined
  const databases: SourceDatabase[] = []

  beforeAll(async () => {
    server = await startSourceServer(
      control.db,
      { pollIntervalMs: 60_000 },
      { controlPlaneUrl: control.url },
    )
    quiet = buildApp(control.db, {}, { keys: keysWith(server.key) })
    scripts = buildApp(
      control.db,
      {},
      {
        keys: keysWith(server.key),
        sources: server.runtime,
        databaseChecks: {
          limits: { perIp: 1000, windowMs: 60_000, concurrent: 8 },
        },
      },
    )
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
    for (const database of databases) await database.drop()
  })

  const must = <T>(value: T | undefined): T => {
    if (!value) throw new Error('the claimable server starts in beforeAll')
    return value
  }

  const api = {
    get server() {
      return must(server)
    },
    /** The same control plane without a runtime: what it creates starts only when kicked. */
    get quiet() {
      return must(quiet)
    },
    /** The server's runtime behind limits a file of creates never meets. */
    get scripts() {
      return must(scripts)
    },
    async sourceDatabase() {
      const database = await createSourceDatabase()
      databases.push(database)
      return database
    },
    /** A script's POST over real HTTP: plain fetch, no cookie, no Origin. */
    async createOverHttp(body: unknown) {
      const response = await fetch(`${must(server).origin}${CLAIMABLE_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      return { status: response.status, body: (await response.json()) as never }
    },
    async claimState(claimId: string) {
      const response = await fetch(
        `${must(server).origin}${CLAIMABLE_PATH}/${claimId}`,
      )
      return { status: response.status, body: (await response.json()) as never }
    },
    /** Waits until the claim answers `state`. */
    async untilState(claimId: string, state: string) {
      await vi.waitFor(
        async () =>
          expect(
            ((await api.claimState(claimId)).body as { state: string }).state,
          ).toBe(state),
        { timeout: 20_000, interval: 100 },
      )
      return claimableSourceSchema.parse((await api.claimState(claimId)).body)
    },
    /** A claimable source on `database` (a new one by default), waited for until ready. */
    async readyClaim(database?: SourceDatabase) {
      const db = database ?? (await api.sourceDatabase())
      const created = await createThrough(must(scripts), {
        database_url: db.url,
      })
      expect(created.status).toBe(201)
      const { claimId } = (await created.json()) as { claimId: string }
      const answer = await api.untilState(claimId, 'ready')
      return { claimId, sourceId: answer.source.source_id, database: db }
    },
  }
  return api
}
