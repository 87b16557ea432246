// SOAK: the engine (its own process) for 30 minutes (SOAK_MINUTES) under a steady load of
// inserts, updates and deletes, one client following the whole table and others coming and
// going on a fixed set of filtered shapes (one replaced every 10 s). Its memory (RSS) and open files must stay flat once
// warm: the median of the last sixth of the run against that of the second sixth. Every
// client ends with the source's rows, each once.
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import {
  freePort,
  startEmbeddedPostgres,
} from '../../src/server/platform/db/embedded-postgres.ts'
import { createPool } from '../../src/server/platform/db/database.ts'
import { processUsage, startEngineProcess } from './engine-process.ts'
import type { FaultScenario } from './scenario.ts'
import {
  follow,
  insertLoad,
  scratchDir,
  settle,
  truthOf,
  type Follower,
} from './support.ts'

const COLUMNS = ['id', 'body']
const MINUTES = Number(process.env.SOAK_MINUTES ?? 30)
const SAMPLE_MS = 10_000
// Filtered shapes clients come and go on: a fixed set, so the engine's shapes stay as many.
const FILTERS = 12
// The load's pace: a transaction (an insert, an update, now and then a delete) every 20 ms.
const GAP_MS = 20
// Flat: the end's RSS within a quarter (plus 20 MB) of the warm baseline, files within 8.
const RSS_GROWTH = 1.25
const RSS_SLACK = 20 * 1024 * 1024
const FD_SLACK = 8

type Sample = { rss: number; fds: number }

export const soak: FaultScenario = {
  id: 'SOAK',
  title: `${MINUTES}-minute soak, RSS and fds flat`,
  quick: false,
  async run(ctx) {
    const root = await scratchDir('soak')
    const server = await startEmbeddedPostgres({ dir: join(root, 'pg') })
    const db = createPool(server.url)
    await db.query('create table items (id int primary key, body text)')
    const engine = await startEngineProcess({
      databaseUrl: server.url,
      port: await freePort(),
      dataDir: join(root, 'engine'),
      log: () => {},
    })
    const whole = follow(engine.shapeUrl, 'items')
    const filtered = (k: number) =>
      follow(engine.shapeUrl, 'items', `id % ${FILTERS} = ${k}`)
    // Every filtered shape from the start: the shapes stay as many, only clients come and go.
    const coming: Follower[] = Array.from({ length: FILTERS }, (_, k) =>
      filtered(k),
    )
    const samples: Sample[] = []
    const load = insertLoad(async (n) => {
      const gone = n % 10 === 0 ? `delete from items where id = ${n - 5};` : ''
      await db.query(`begin;
        insert into items values (${n}, 'row ${n}');
        update items set body = 'updated ' || ${n} where id = ${Math.floor(Math.random() * n) + 1};
        ${gone} commit;`)
      await new Promise((r) => setTimeout(r, GAP_MS))
    })
    try {
      const started = performance.now()
      const endAt = started + MINUTES * 60_000
      let turn = 0
      while (performance.now() < endAt) {
        await new Promise((r) => setTimeout(r, SAMPLE_MS))
        samples.push(await sample(engine.pid))
        // A client of one filtered shape goes, another comes on the same shape.
        const k = turn++ % FILTERS
        coming[k]?.stop()
        coming[k] = filtered(k)
        const last = samples.at(-1)!
        ctx.log(
          `SOAK: ${Math.round((performance.now() - started) / 60_000)} min, ${load.written} transactions, RSS ${mb(last.rss)}, ${last.fds} fds`,
        )
      }
      await load.stop()
      const stopped = performance.now()
      const result = await settle(
        whole,
        () => truthOf(db, 'items', COLUMNS),
        COLUMNS,
        stopped,
        120_000,
      )
      // The last filtered client to have come is compared too.
      const k = (turn + FILTERS - 1) % FILTERS
      const lastCome = await settle(
        coming[k]!,
        () => truthOf(db, 'items', COLUMNS, `id % ${FILTERS} = ${k}`),
        COLUMNS,
        stopped,
        120_000,
      )
      const sixth = Math.max(1, Math.floor(samples.length / 6))
      const warm = median(samples.slice(sixth, 2 * sixth))
      const end = median(samples.slice(-sixth))
      const figures = `RSS ${mb(warm.rss)} warm → ${mb(end.rss)} at the end, fds ${warm.fds} → ${end.fds}, ${samples.length} samples`
      if (end.rss > warm.rss * RSS_GROWTH + RSS_SLACK)
        throw new Error(`the engine's memory grew: ${figures}`)
      if (end.fds > warm.fds + FD_SLACK)
        throw new Error(`the engine's open files grew: ${figures}`)
      return {
        lost: result.lost + lastCome.lost,
        duplicated: result.duplicated + lastCome.duplicated,
        recoverMs: result.recoverMs,
        notes: `${result.notes}; ${MINUTES} min, ${load.written} transactions, ${turn} clients came and went; ${figures}`,
      }
    } finally {
      await load.stop()
      whole.stop()
      for (const follower of coming) follower.stop()
      await engine.kill().catch(() => {})
      await db.end()
      await server.stop()
      await rm(root, { recursive: true, force: true })
    }
  },
}

async function sample(pid: number): Promise<Sample> {
  const usage = await processUsage(pid)
  if (!usage) throw new Error('the engine process is gone')
  return usage
}

function median(samples: Sample[]): Sample {
  const at = (values: number[]) =>
    values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
  return {
    rss: at(samples.map((s) => s.rss)),
    fds: at(samples.map((s) => s.fds)),
  }
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`
