// F8: a transaction left open (10 minutes; 5 s in npm test) while a shape is snapshotted and
// other writes commit around it. Its rows are not in the snapshot (it had not committed) and
// must come through the stream once it commits, each once; rows committed during the snapshot
// neither twice nor never. Meanwhile the slot cannot move past the open transaction's start,
// so the WAL it retains grows, and replication health must show it, then let it go.
import pg from 'pg'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { createPool, type Db } from '../../src/server/platform/db/database.ts'
import { startEmbeddedPostgres } from '../../src/server/platform/db/embedded-postgres.ts'
import { replicationNames } from '../../src/engine/replication/names.ts'
import { slotHealth } from '../../src/engine/replication/slot.ts'
import { startTestEngine } from '../support/engine.ts'
import { waitUntil } from '../support/wait.ts'
import type { FaultScenario } from './scenario.ts'
import {
  explain,
  follow,
  type Follower,
  scratchDir,
  settle,
  truthOf,
  writeLoad,
} from './support.ts'

const COLUMNS = ['id', 'body']
const ID = 'f8_long_transaction'
const OPEN_MS = 10 * 60_000
const QUICK_OPEN_MS = 5_000
// The open transaction's last row, as the client keys it.
const LAST_LONG_ROW = '"public"."items"/"1000100"'

export const f8: FaultScenario = {
  id: 'F8',
  title: 'a transaction open 10 minutes during a snapshot',
  quick: true,
  async run(ctx) {
    const root = await scratchDir('f8')
    const server = await startEmbeddedPostgres({ dir: join(root, 'pg') })
    const db = createPool(server.url)
    await db.query(`create table items (id int primary key, body text);
      create table other (id int primary key, body text)`)
    await db.query(
      `insert into items select i, 'row ' || i from generate_series(1, 1000) i`,
    )
    const engine = await startTestEngine(server.url, { id: ID })
    const long = new pg.Client({ connectionString: server.url })
    await long.connect()
    const followers: Follower[] = []
    try {
      // A first shape publishes the table; the one made during the transaction snapshots it.
      const first = follow(engine.shapeUrl, 'items')
      followers.push(first)
      await waitUntil('the first snapshot', () => first.rows.size === 1000)
      // Open, holding its xid and its locks: new rows, a change to rows the snapshot carries,
      // and a row of a table no shape has published yet.
      await long.query('begin')
      await long.query(
        `insert into items select i, 'long ' || i from generate_series(1000001, 1000100) i`,
      )
      await long.query(`update items set body = 'long update' where id <= 600`)
      await long.query(`insert into other values (1, 'long')`)
      const load = writeLoad(db, 'items', 2000)
      await waitUntil(
        'writes around the open transaction',
        () => load.written >= 20,
      )
      await busyTableAnswers(engine.shapeUrl, db)
      const before = await retained(db)
      const second = follow(engine.shapeUrl, 'items', 'id > 500')
      followers.push(second)
      await waitUntil(
        'the snapshot made during the transaction to reach its client',
        () => second.rows.size >= 500,
      )
      const openMs = ctx.quick ? QUICK_OPEN_MS : OPEN_MS
      ctx.log(
        `F8: snapshot taken; the transaction stays open ${openMs / 1000} s`,
      )
      let most = before
      const opened = performance.now()
      while (performance.now() - opened < openMs) {
        await new Promise((r) => setTimeout(r, Math.min(1_000, openMs)))
        const now = await retained(db)
        if (now > most) most = now
      }
      if (followers.some((f) => f.rows.has(LAST_LONG_ROW)))
        throw new Error(
          'a row of the open transaction was served before its commit',
        )
      await long.query('commit')
      const committed = performance.now()
      ctx.log(
        `F8: committed; WAL retained rose from ${before} to ${most} bytes`,
      )
      for (const follower of followers)
        await waitUntil("the open transaction's rows to arrive", () =>
          follower.rows.has(LAST_LONG_ROW),
        ).catch(explain(follower))
      await load.stop()
      const whole = await settle(
        first,
        () => truthOf(db, 'items', COLUMNS),
        COLUMNS,
        committed,
      )
      const during = await settle(
        second,
        () => truthOf(db, 'items', COLUMNS, 'id > 500'),
        COLUMNS,
        committed,
      )
      // Once the lock is gone, the busy table publishes and serves.
      const other = follow(engine.shapeUrl, 'other')
      followers.push(other)
      await waitUntil('the busy table to serve after the commit', () =>
        other.rows.has('"public"."other"/"2"'),
      ).catch(explain(other))
      // Health showed the retention, and lets it go once the slot moves past the commit.
      if (most <= before)
        throw new Error(
          `replication health never showed the WAL the open transaction held (${before} → ${most} bytes)`,
        )
      await waitUntil(
        'the retained WAL to shrink after the commit',
        async () => (await retained(db)) < most,
        60_000,
      )
      return {
        lost: whole.lost + during.lost,
        duplicated: whole.duplicated + during.duplicated,
        recoverMs: Math.max(
          whole.recoverMs ?? Infinity,
          during.recoverMs ?? Infinity,
        ),
        notes: `${whole.notes}; ${during.notes} (snapshot while open ${openMs / 1000} s); WAL retained ${before} → ${most} bytes while open, then released; an unpublished table locked by it answered 503 at once, its writers never held up`,
      }
    } finally {
      for (const follower of followers) follower.stop()
      await long.end().catch(() => {})
      await engine.destroy().catch(() => {})
      await db.end()
      await server.stop()
      await rm(root, { recursive: true, force: true })
    }
  },
}

/**
 * A shape of a table the open transaction has locked, and no shape published yet: publishing
 * needs an exclusive lock, so the engine answers 503 (busy) rather than wait, and the table's
 * writers are never queued behind it (a write right after still goes through).
 */
async function busyTableAnswers(shapeUrl: string, db: Db): Promise<void> {
  const response = await fetch(`${shapeUrl}?table=other&offset=-1`, {
    signal: AbortSignal.timeout(10_000),
  })
  const body = await response.text()
  if (response.status !== 503 || !/busy/.test(body))
    throw new Error(
      `a shape of a locked table answered ${response.status}: ${body}`,
    )
  const write = db.query(`insert into other values (2, 'after')`)
  const stalled = new Promise<never>((_, reject) =>
    setTimeout(
      () => reject(new Error('a write to the locked table stalled')),
      10_000,
    ).unref(),
  )
  await Promise.race([write, stalled])
}

async function retained(db: Db): Promise<bigint> {
  const health = await slotHealth(db, replicationNames(ID).slot)
  return health.retainedBytes ?? 0n
}
