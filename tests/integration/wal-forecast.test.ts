// The WAL forecast on the product path: a source run by a real source runtime on its own
// Postgres, whose slot falls behind the way a user's does, behind a long transaction. The
// engine keeps streaming and confirming, but a logical slot cannot restart past the oldest
// transaction still open, so retained WAL grows with every segment written. Without
// max_slot_wal_keep_size the forecast stays null; with it, it is the seconds left, on the
// sources row and in the API, and the team's webhook hears one wal_forecast_warning (the
// default threshold is an hour; this slot has seconds). Committing lets the slot catch up:
// the forecast goes and the incident resolves.
import { chmod, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AlertPayload } from '../../src/shared/alerts.ts'
import { createPool, type Db } from '../../src/server/platform/db/database.ts'
import {
  startEmbeddedPostgres,
  type RunningPostgres,
} from '../../src/server/platform/db/embedded-postgres.ts'
import { useAlerts } from '../support/alerts.ts'
import {
  insertSource,
  startSourceServer,
  type SourceServer,
} from '../support/sources.ts'

const alerts = useAlerts()
let server: SourceServer
let source: RunningPostgres
let sourceDb: Db
let root: string

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sluice-wal-forecast-'))
  await chmod(root, 0o755)
  // No max_slot_wal_keep_size yet (Postgres's default: no limit); the test sets one.
  source = await startEmbeddedPostgres({ dir: join(root, 'pg') })
  sourceDb = createPool(source.url)
  await sourceDb.query('create table filler (n int)')
  // The health interval of startSourceServer: 250 ms.
  server = await startSourceServer(alerts.db)
}, 60_000)

afterAll(async () => {
  await server?.stop()
  await sourceDb?.end()
  await source?.stop()
  await rm(root, { recursive: true, force: true })
})

type Health = {
  state: string
  wal_retained_bytes: string | null
  wal_forecast_seconds: string | null
  checked: Date | null
}

async function health(id: string): Promise<Health | undefined> {
  const { rows } = await alerts.db.query<Health>(
    `select state, wal_retained_bytes::text, wal_forecast_seconds::text,
            health_checked_at as checked
       from sources where id = $1`,
    [id],
  )
  return rows[0]
}

/** A new WAL segment: the current position jumps to it, a slot held back retains it all. */
async function writeSegment() {
  await sourceDb.query('insert into filler values (1)')
  await sourceDb.query('select pg_switch_wal()')
}

async function setKeepSize(value: string) {
  await sourceDb.query(`alter system set max_slot_wal_keep_size = '${value}'`)
  await sourceDb.query('select pg_reload_conf()')
}

const MiB = 1024 ** 2

/** The alert monitor and delivery worker, a few passes: a persisting condition must not alert again. */
async function alertPasses(n = 3) {
  for (let i = 0; i < n; i += 1) await alerts.alerts.runOnce()
}

const sent = (received: { body: string }[]) =>
  received
    .map((r) => JSON.parse(r.body) as AlertPayload)
    .map((p) => [p.event, p.state])

describe('the WAL forecast', () => {
  it('is null without a limit, the seconds left with one, and null again once the slot catches up', async () => {
    const member = await alerts.withDestination()
    const { id } = await insertSource(
      alerts.db,
      server.key,
      member.teamId,
      source.url,
    )
    await expect
      .poll(async () => (await health(id))?.checked ?? null, {
        timeout: 30_000,
      })
      .not.toBeNull()
    expect((await health(id))?.wal_forecast_seconds).toBeNull()

    // A transaction that wrote and stays open: the slot's restart point waits for it.
    const held: pg.PoolClient = await sourceDb.connect()
    try {
      await held.query('begin')
      await held.query('insert into filler values (0)')
      for (let i = 0; i < 4; i += 1) await writeSegment()
      // Measured retaining the segments, and still no forecast: there is no limit.
      const measuredBehind = async () => {
        const now = await health(id)
        return Number(now?.wal_retained_bytes ?? 0) >= 48 * MiB
      }
      await expect.poll(measuredBehind, { timeout: 10_000 }).toBe(true)
      const behind = (await health(id))?.checked?.getTime() ?? 0
      await expect
        .poll(async () => (await health(id))?.checked?.getTime(), {
          timeout: 10_000,
        })
        .toBeGreaterThan(behind)
      expect((await health(id))?.wal_forecast_seconds).toBeNull()

      await setKeepSize('1GB')
      await writeSegment()
      await expect
        .poll(async () => (await health(id))?.wal_forecast_seconds ?? null, {
          timeout: 10_000,
        })
        .not.toBeNull()
      const seconds = Number((await health(id))?.wal_forecast_seconds)
      expect(seconds).toBeGreaterThan(0)
      // The room left is below the 1 GB limit, and the rate is what the test wrote.
      const { rows } = await sourceDb.query<{ safe: string }>(
        'select safe_wal_size::text as safe from pg_replication_slots',
      )
      expect(Number(rows[0]?.safe)).toBeLessThan(1024 * MiB)

      const answer = await member.browser.get(`/api/v1/sources/${id}`)
      expect(answer.status).toBe(200)
      const body = (await answer.json()) as { wal_forecast_seconds: unknown }
      expect(body.wal_forecast_seconds).toEqual(expect.any(Number))
      const list = (await (
        await member.browser.get('/api/v1/sources')
      ).json()) as { id: string; wal_forecast_seconds: unknown }[]
      expect(list.find((s) => s.id === id)?.wal_forecast_seconds).toEqual(
        expect.any(Number),
      )

      await alertPasses()
      expect(sent(member.receiver.received)).toEqual([
        ['wal_forecast_warning', 'firing'],
      ])
      const firing = JSON.parse(
        member.receiver.received[0]?.body ?? '{}',
      ) as AlertPayload
      expect(firing).toMatchObject({ team_id: member.teamId, source_id: id })
      expect(firing.message).toMatch(
        /^At the current rate the replication slot would be invalidated in .+, within the team's threshold of 1 h\.$/,
      )
      // Still falling behind, measured again and again: the same incident, no new alert.
      await writeSegment()
      await alertPasses()
      expect(member.receiver.received).toHaveLength(1)
    } finally {
      await held.query('commit').catch(() => {})
      held.release()
    }

    // The slot restarts past the committed transaction at the next running-transactions
    // record, which a checkpoint writes: retained WAL falls and the forecast goes.
    await expect
      .poll(
        async () => {
          await sourceDb.query('insert into filler values (2)')
          await sourceDb.query('checkpoint')
          return (await health(id))?.wal_forecast_seconds ?? null
        },
        { timeout: 20_000, interval: 100 },
      )
      .toBeNull()
    expect(Number((await health(id))?.wal_retained_bytes)).toBeLessThan(
      16 * MiB,
    )
    await alertPasses()
    expect(sent(member.receiver.received)).toEqual([
      ['wal_forecast_warning', 'firing'],
      ['wal_forecast_warning', 'resolved'],
    ])
  }, 90_000)
})
