// Replication health as the dashboard reads it from the sources row: measured as soon as a
// source becomes active (not an interval later), and its time kept current on every
// measurement, even when the readings do not move.
import { afterEach, describe, expect, it } from 'vitest'
import type { Db } from '../../src/server/platform/db/database.ts'
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

const control = useControlPlaneDatabase()
const running: { server: SourceServer; database: SourceDatabase }[] = []

afterEach(async () => {
  for (const { server, database } of running.splice(0)) {
    await server.stop()
    await database.drop()
  }
})

/** A server whose slots are measured every `healthIntervalMs`, with one source on it. */
async function sourceOnServer(db: Db, healthIntervalMs: number) {
  const server = await startSourceServer(db, { healthIntervalMs })
  const database = await createSourceDatabase()
  running.push({ server, database })
  const { user } = await signInLocally(server.app)
  const teamId = await personalTeam(db, user.id)
  const { id } = await insertSource(db, server.key, teamId, database.url)
  return id
}

const checkedAt = async (id: string) =>
  (await sourceRow(control.db, id))?.health_checked_at?.getTime() ?? null

describe('replication health', () => {
  it('is measured as soon as the source becomes active', async () => {
    // The interval never comes round in this test: only the activation can measure.
    const id = await sourceOnServer(control.db, 60 * 60_000)
    await expect
      .poll(async () => (await sourceRow(control.db, id))?.state, {
        timeout: 20_000,
      })
      .toBe('active')
    await expect.poll(() => checkedAt(id), { timeout: 10_000 }).not.toBeNull()
    expect((await sourceRow(control.db, id))?.wal_status).toBe('reserved')
  }, 60_000)

  it('keeps its measured time current while the readings stay the same', async () => {
    const id = await sourceOnServer(control.db, 250)
    await expect.poll(() => checkedAt(id), { timeout: 20_000 }).not.toBeNull()
    const first = (await checkedAt(id)) ?? 0
    // Nothing writes to the source database meanwhile, so the readings do not move.
    await expect
      .poll(() => checkedAt(id), { timeout: 10_000 })
      .toBeGreaterThan(first)
  }, 60_000)
})
