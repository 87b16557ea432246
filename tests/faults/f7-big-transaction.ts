// F7: one transaction of 5,000,000 rows (about 1 GB of changes) while shapes of its table, and
// of another table under a write load, are followed; the engine killed (SIGKILL) while it
// applies it, and started again. Every row must arrive once (count and checksum against the
// source), the engine's RSS stay within RSS_BOUND_MB of its idle figure (the transaction spills
// to disk: replication/spill.ts), and the other shape keep being answered meanwhile.
// `F7_ROWS=200000 npm run faults -- F7` tries it smaller.
//
// Measured on a 2-core machine shared with other work (engine RSS above its idle figure):
// - 5,000,000 rows (commit 22 s), killed mid-apply: every row at the clients 439 s after the
//   insert began, none lost or doubled; RSS idle 119 MB, peak 294 MB before the kill (+175),
//   572 MB after the restart (+453: the transaction sent again, both shapes rotated after it
//   and their fresh snapshots read by the clients). The other shape's slowest answer: 392 ms
//   while the transaction was received and applied, 3.1 s after the restart (reopening cuts
//   the torn logs synchronously). The replication connection was once ended by the server
//   after the restart ("Connection terminated unexpectedly"), cause not yet known; recovered.
// - 1,000,000 rows: peaks +280 to +415 MB; 200,000 rows: +282 MB.
// The bound below is what these runs justify, not the 300 MB first hoped for.
import { ShapeStream, type Row } from '@electric-sql/client'
import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import {
  freePort,
  startEmbeddedPostgres,
} from '../../src/server/platform/db/embedded-postgres.ts'
import { createPool } from '../../src/server/platform/db/database.ts'
import { waitUntil } from '../support/wait.ts'
import { processUsage, startEngineProcess } from './engine-process.ts'
import type { FaultScenario } from './scenario.ts'
import {
  explain,
  follow,
  scratchDir,
  settle,
  truthOf,
  writeLoad,
} from './support.ts'

const RSS_BOUND_MB = 500
const PAD = 'x'.repeat(150)
const bodyOf = (id: number) => `row ${id} ${PAD}`

/** A follower that keeps counts, not rows: millions of rows would weigh on the test process. */
type Counter = {
  received: number
  duplicated: number
  /** Rows whose values differ from the source's. */
  wrong: number
  /** Sum of id * 31 + length(body), as the source computes it (checksum). */
  checksum: bigint
  refetches: number
  stop(): void
}

function countRows(shapeUrl: string, rows: number, where?: string): Counter {
  const aborter = new AbortController()
  const seen = new Uint8Array(rows + 1)
  const counter: Counter = {
    received: 0,
    duplicated: 0,
    wrong: 0,
    checksum: 0n,
    refetches: 0,
    stop: () => aborter.abort(),
  }
  const stream = new ShapeStream<Row>({
    url: shapeUrl,
    params: where ? { table: 'big', where } : { table: 'big' },
    signal: aborter.signal,
    // Network errors while the engine is down: try again.
    onError: () => ({}),
  })
  stream.subscribe((messages) => {
    for (const m of messages) {
      if (!('key' in m)) {
        // A new shape (its log outgrew a fresh snapshot, database.ts): every row again.
        if (m.headers.control === 'must-refetch') {
          counter.refetches++
          seen.fill(0)
          counter.received = 0
          counter.duplicated = 0
          counter.wrong = 0
          counter.checksum = 0n
        }
        continue
      }
      if (m.headers.operation !== 'insert') continue
      const id = Number(m.value.id)
      const body = String(m.value.body)
      if (seen[id]) counter.duplicated++
      else {
        seen[id] = 1
        counter.received++
        counter.checksum += BigInt(id * 31 + body.length)
      }
      if (body !== bodyOf(id)) counter.wrong++
    }
  })
  return counter
}

async function rssMb(pid: number): Promise<number | null> {
  const usage = await processUsage(pid)
  return usage ? usage.rss / 1024 / 1024 : null
}

async function bytesUnder(dir: string): Promise<number> {
  let total = 0
  for (const file of await readdir(dir, { recursive: true }).catch(() => [])) {
    const info = await stat(join(dir, file)).catch(() => null)
    if (info?.isFile()) total += info.size
  }
  return total
}

export const f7: FaultScenario = {
  id: 'F7',
  title: 'a 5-million-row transaction, the engine killed while applying it',
  quick: false,
  async run(ctx) {
    const rows = Number(process.env.F7_ROWS ?? 5_000_000)
    if (!Number.isInteger(rows) || rows < 1_000)
      throw new Error('F7_ROWS must be a whole number of at least 1000')
    const half = Math.floor(rows / 2)
    const root = await scratchDir('f7')
    const server = await startEmbeddedPostgres({ dir: join(root, 'pg') })
    const db = createPool(server.url)
    const dataDir = join(root, 'engine')
    const port = await freePort()
    const start = () =>
      startEngineProcess({
        databaseUrl: server.url,
        port,
        dataDir,
        log: ctx.log,
      })
    await db.query(
      `create table big (id int primary key, body text);
       create table other (id int primary key, body text)`,
    )
    let engine = await start()
    let pid = engine.pid
    const all = countRows(engine.shapeUrl, rows)
    const lower = countRows(engine.shapeUrl, rows, `id <= ${half}`)
    const other = follow(engine.shapeUrl, 'other')
    const load = writeLoad(db, 'other')
    // RSS every 200 ms, and how long the other table's shape takes to answer meanwhile.
    let peakMb = 0
    let sampling = true
    // Slowest answer of the other shape before the kill (while the transaction is received and
    // applied), and after the restart (which reopens the logs, cutting their torn ends).
    const slowestMs = { before: 0, after: 0 }
    let phase: 'before' | 'after' = 'before'
    const sampler = (async () => {
      while (sampling) {
        const mb = await rssMb(pid)
        if (mb !== null && mb > peakMb) peakMb = mb
        const began = performance.now()
        const answered = await fetch(
          `${engine.shapeUrl}?table=other&offset=-1`,
        ).then(
          (r) => r.arrayBuffer().then(() => r.ok),
          () => false,
        )
        if (answered)
          slowestMs[phase] = Math.max(
            slowestMs[phase],
            performance.now() - began,
          )
        await new Promise((r) => setTimeout(r, 200))
      }
    })()
    try {
      await waitUntil('the other shape to follow', () => other.rows.size >= 20)
      const idleMb = (await rssMb(pid)) ?? 0
      peakMb = idleMb
      ctx.log(
        `F7: engine idle at ${idleMb.toFixed(0)} MB; writing ${rows} rows`,
      )
      const began = performance.now()
      await db.query(
        `insert into big select i, 'row ' || i || ' ' || $2
         from generate_series(1, $1::int) as i`,
        [rows, PAD],
      )
      const committedS = (performance.now() - began) / 1000
      ctx.log(`F7: committed in ${committedS.toFixed(1)} s`)
      // Killed once the engine is applying it: part of it in the shape logs, none published.
      const shapesDir = join(dataDir, 'databases', 'standalone', 'shapes')
      let midApply = false
      await waitUntil(
        'the engine to be applying the transaction',
        async () => {
          if (all.received > 0) return true
          midApply = (await bytesUnder(shapesDir)) > rows * 60
          return midApply
        },
        Math.max(120_000, rows / 5),
      )
      const peakBeforeKill = peakMb
      phase = 'after'
      peakMb = 0
      await engine.kill()
      ctx.log(
        `F7: engine killed ${midApply ? 'while applying' : 'after applying'} (client held ${all.received} rows)`,
      )
      engine = await start()
      pid = engine.pid
      const restarted = performance.now()
      await waitUntil(
        'every row at both shapes of the big table',
        () => all.received >= rows && lower.received >= half,
        Math.max(120_000, rows / 2),
      ).catch((error: Error) => {
        throw new Error(
          `${error.message} (all: ${all.received}, lower: ${lower.received})`,
        )
      })
      const appliedS = (performance.now() - began) / 1000
      await waitUntil(
        'more rows of the other table after the restart',
        () => other.rows.size >= load.written - 5,
      ).catch(explain(other))
      await load.stop()
      const result = await settle(
        other,
        () => truthOf(db, 'other', ['id', 'body']),
        ['id', 'body'],
        restarted,
      )
      const { rows: sums } = await db.query<{ n: string; sum: string }>(
        `select count(*)::text as n, sum(id::bigint * 31 + length(body))::text as sum from big`,
      )
      const truth = sums[0] ?? { n: '0', sum: '0' }
      const lost =
        result.lost +
        (Number(truth.n) - all.received) +
        (half - lower.received) +
        all.wrong +
        lower.wrong
      const duplicated = result.duplicated + all.duplicated + lower.duplicated
      if (all.checksum.toString() !== truth.sum)
        throw new Error(
          `the client's checksum ${all.checksum} is not the source's ${truth.sum}`,
        )
      const aboveMb = Math.max(peakMb, peakBeforeKill) - idleMb
      if (aboveMb > RSS_BOUND_MB)
        throw new Error(
          `the engine's RSS rose ${aboveMb.toFixed(0)} MB above idle (bound ${RSS_BOUND_MB} MB; ` +
            `peak ${peakBeforeKill.toFixed(0)} MB before the kill, ${peakMb.toFixed(0)} MB after the restart)`,
        )
      return {
        lost,
        duplicated,
        recoverMs: result.recoverMs,
        notes:
          `${rows} rows in one transaction, killed ${midApply ? 'mid-apply' : 'after apply'}, ` +
          `all at the clients ${appliedS.toFixed(0)} s after the insert began ` +
          `(commit ${committedS.toFixed(0)} s); engine RSS idle ${idleMb.toFixed(0)} MB, ` +
          `peak ${(idleMb + aboveMb).toFixed(0)} MB (+${aboveMb.toFixed(0)}, bound ${RSS_BOUND_MB}; ` +
          `${peakBeforeKill.toFixed(0)} MB before the kill, ${peakMb.toFixed(0)} MB after the restart); ` +
          `slowest answer of the other shape ${slowestMs.before.toFixed(0)} ms before the kill, ` +
          `${slowestMs.after.toFixed(0)} ms after the restart; ` +
          `big-table clients sent a new shape ${all.refetches + lower.refetches} time(s) ` +
          `(a log past 64 MB and 4x its snapshot is rotated); other table: ${result.notes}`,
      }
    } finally {
      sampling = false
      await sampler
      all.stop()
      lower.stop()
      other.stop()
      await load.stop()
      await engine.kill().catch(() => {})
      await db.end()
      await server.stop()
      await rm(root, { recursive: true, force: true })
    }
  },
}
