// Benchmarks the sync engine against a raw pgoutput-decode baseline (the replication core with
// a handler that only counts) of the same workload, on its own embedded Postgres:
//  1. commit-to-client latency with 1, 100 and 1,000 `team_id = $1` shapes, each followed by a
//     long-polling HTTP client;
//  2. sustained changes/s with lag flat, 1,000 team shapes and then 100 `LIKE` shapes;
//  3. the engine's CPU time per 1,000 changes at 1,000 and at 10,000 team shapes, and their
//     ratio (scripts/bench/shape-cost.ts);
//  4. the initial snapshot of a 1M-row table (100k with --quick), as `--only snapshot` measures
//     it without the 3M-row memory read;
//  5. resident memory per idle shape at 10,000 shapes;
//  6. fan-out: 1,000 and 10,000 long-poll clients of one shape through nginx (the repo's
//     shape-cache config): commit-to-client and the requests that reach the engine per change.
// The engine runs in this process; writers and HTTP clients in a forked load process.
// `npm run bench:engine [-- --quick] [--fanout-only | --throughput-only] [--shapes N]
// [--offer N] [--cpu-profile FILE] [--heap-profile FILE]` prints `BENCH_JSON {...}` and a
// table. `--shapes` sets how many team shapes the throughput phase follows (1,000 by default);
// `--offer` the team windows' paced rate (110% of the target by default); `--cpu-profile`
// writes the engine process's CPU profile of the engine's `team_id = $1` windows (open it in
// Chrome's DevTools); `--heap-profile` instead samples, over the same windows, what was
// allocated and outlived a young-generation collection: what the collector copies and promotes.
// `--only shape-cost` instead measures only the CPU per change at 1,000 and 10,000 team shapes
// (`--cpu-profile` or `--heap-profile` then writes a profile of each). `--only snapshot` instead measures only the
// initial snapshot (scripts/bench/snapshot.ts: a
// 1M-row table to one official client against a COPY floor, first rows, memory, shared
// snapshots, an indexed where; `--cpu-profile` or `--heap-profile` covers all of it). `--subset-in` instead measures only the event-loop lag of
// subsets with huge IN lists (scripts/bench/subset-in.ts). `--subqueries` instead measures only subquery shapes
// (scripts/bench/subqueries.ts): membership change to client, and the CPU an `items` change
// costs with 1,000 (or `--shapes`) subquery shapes against as many `team_id = $1` ones;
// `--cpu-profile` then covers the subquery shapes' burst. It is not part of the full run,
// though it takes under a minute: it wants `items` as seeded (the full run's windows grow it
// tenfold, and move-ins would carry those rows) and `members` with a user column, which the
// full run's 10,000 idle `members` shapes would have to follow through a schema change.
import { writeFile } from 'node:fs/promises'
import { Session } from 'node:inspector/promises'
import { availableParallelism, loadavg } from 'node:os'
import { Baseline } from './bench/baseline.ts'
import { measureFanout } from './bench/fanout.ts'
import type { ShapeSpec } from './bench/client.ts'
import {
  seed,
  startCluster,
  startEngine,
  TABLES_SQL,
  type RunningEngine,
} from './bench/env.ts'
import { LoadProcess } from './bench/ipc.ts'
import { calibrate, loopbackRoundTripUs } from './bench/machine.ts'
import {
  measureMemory,
  throughputWindows,
  type Workload,
} from './bench/phases.ts'
import { TARGETS, type Report } from './bench/report.ts'
import { printReport } from './bench/table.ts'
import { measureSubsetIn, printSubsetIn } from './bench/subset-in.ts'
import { measureSnapshots, printSnapshots } from './bench/snapshot.ts'
import { measureShapeCost, printShapeCost } from './bench/shape-cost.ts'
import type { WriterShape } from './bench/workload.ts'
import { measureSubqueries, seedSubqueries } from './bench/subqueries.ts'
import { printSubqueries } from './bench/subqueries-table.ts'
import { MAX_LIST_ITEMS } from '../src/engine/where/limits.ts'
import type { Consumer, WindowResult } from './bench/window.ts'
import type pg from 'pg'

const quick = process.argv.includes('--quick')
const fanoutOnly = process.argv.includes('--fanout-only')
// Just the figure the engine is held to: changes/s at 1,000 `team_id = $1` shapes,
// against the raw-decode baseline (a few minutes rather than the whole run).
const throughputOnly = process.argv.includes('--throughput-only')
const flagValue = (name: string) => {
  const i = process.argv.indexOf(name)
  return i < 0 ? undefined : process.argv[i + 1]
}
const countFlag = (name: string) => {
  const text = flagValue(name)
  if (text === undefined) return undefined
  const n = Number(text)
  if (!(Number.isInteger(n) && n > 0))
    throw new Error(`${name} takes a positive whole number, not ${text}`)
  return n
}
const SHAPES = countFlag('--shapes')
// The team workload's paced rate instead of 110% of its target: what the engine does with the
// machine's headroom at a lower load (its sustained figure is still judged by the target).
const OFFER = countFlag('--offer')
const cpuProfileFile = flagValue('--cpu-profile')
const heapProfileFile = flagValue('--heap-profile')
const profileFile = cpuProfileFile ?? heapProfileFile
const CONFIG = quick
  ? {
      shapeSteps: [1, 10, 100],
      samples: 50,
      likeShapes: 10,
      windowMs: 3_000,
      costWindowMs: 5_000,
      burstSeconds: 2,
      snapshotRows: 100_000,
      memoryShapes: 1_000,
      fanoutClients: [100, 1_000],
      fanoutChanges: 5,
    }
  : {
      shapeSteps: [1, 100, 1_000],
      samples: 200,
      likeShapes: 100,
      windowMs: 10_000,
      costWindowMs: 30_000,
      burstSeconds: 5,
      snapshotRows: 1_000_000,
      memoryShapes: 10_000,
      fanoutClients: [1_000, 10_000],
      fanoutChanges: 20,
    }
const TEAMS = SHAPES ?? CONFIG.shapeSteps.at(-1) ?? 1
const SEED_PER_TEAM = 10
const VOCABULARY = 1_000
const SAMPLE_TIMEOUT_MS = 5_000
const WRITER: WriterShape = {
  teams: TEAMS,
  vocabulary: VOCABULARY,
  updatePool: TEAMS * SEED_PER_TEAM,
  inserts: 100,
  updates: 100,
}
/** Hard stop for every loop and wait in the run. */
const DEADLINE = performance.now() + 25 * 60_000

const WORKLOADS: Workload[] = [
  { name: 'team_id = $1', target: TARGETS.eqChangesPerSec, offered: OFFER },
  { name: 'LIKE', target: TARGETS.likeChangesPerSec },
].filter((w) => !throughputOnly || w.name !== 'LIKE')
const teamSpec = (team: number): ShapeSpec => ({
  table: 'items',
  where: 'team_id = $1',
  params: [String(team)],
})
const likeSpec = (word: number): ShapeSpec => ({
  table: 'items',
  where: `body LIKE '%k${word}x%'`,
})
const memberSpec = (team: number): ShapeSpec => ({
  table: 'members',
  where: 'team_id = $1',
  params: [String(team)],
})

type Profiling = { session: Session; file: string; heap: boolean }

async function startProfile(file: string, heap: boolean): Promise<Profiling> {
  const session = new Session()
  session.connect()
  if (heap) {
    await session.post('HeapProfiler.enable')
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: false,
    })
  } else {
    await session.post('Profiler.enable')
    await session.post('Profiler.start')
  }
  return { session, file, heap }
}

async function stopProfile({ session, file, heap }: Profiling): Promise<void> {
  const { profile } = heap
    ? await session.post('HeapProfiler.stopSampling')
    : await session.post('Profiler.stop')
  session.disconnect()
  await writeFile(file, JSON.stringify(profile))
}

/** `run`, profiled into `file` (a heap profile when `heap`); just run without a file. */
async function profiled<T>(
  file: string | undefined,
  heap: boolean,
  run: () => Promise<T>,
): Promise<T> {
  if (file === undefined) return run()
  const profiler = await startProfile(file, heap)
  const result = await run()
  await stopProfile(profiler)
  log(`engine: profile written to ${file}`)
  return result
}

/**
 * For a run measuring one thing (`--subqueries`, `--only shape-cost`): its own Postgres with
 * the bench's tables, seeded by `prepare` (which names what the writers write), the load
 * process and the engine, all stopped after `run`.
 */
async function withOwnRig<P, T>(
  prepare: (admin: pg.Client) => Promise<P & { writer: WriterShape }>,
  run: (rig: {
    load: LoadProcess
    admin: pg.Client
    consumer: Consumer
    prepared: P & { writer: WriterShape }
  }) => Promise<T>,
): Promise<T> {
  const cluster = await startCluster()
  const load = new LoadProcess()
  let running: RunningEngine | null = null
  try {
    const { admin } = cluster
    await admin.query(TABLES_SQL)
    const prepared = await prepare(admin)
    await load.call({
      kind: 'init',
      pgUrl: cluster.postgres.url,
      writer: prepared.writer,
    })
    running = await startEngine(cluster, DEADLINE)
    const { database, slot, shapeUrl } = running
    await load.call({ kind: 'engine', shapeUrl })
    const consumer = { slot, position: () => database.globalLsn }
    return await run({ load, admin, consumer, prepared })
  } finally {
    await load.close()
    await running?.stop()
    await cluster.close()
  }
}

const log = (line: string) =>
  console.error(`[bench ${(performance.now() / 1000).toFixed(1)}s] ${line}`)

async function main(): Promise<Report> {
  const started = performance.now()
  const cpu = process.cpuUsage()
  const report: Report = {
    quick,
    seconds: 0,
    cpus: availableParallelism(),
    loadAverage: { start: loadavg()[0] ?? 0, end: 0 },
    // Before anything else runs, so the figure is the core's alone.
    calibrationMs: calibrate(),
    loopbackUs: await loopbackRoundTripUs(),
    engineCpuSeconds: 0,
    latency: [],
    throughput: [],
    cpuPerThousandChanges: null,
    snapshot: null,
    memory: null,
    fanout: [],
    errors: [],
  }
  log('starting embedded Postgres and the load process')
  const cluster = await startCluster()
  const load = new LoadProcess()
  let running: RunningEngine | null = null
  try {
    const { admin } = cluster
    await admin.query(TABLES_SQL)
    await seed(admin, 'items', TEAMS, SEED_PER_TEAM, VOCABULARY)
    await seed(admin, 'members', CONFIG.memoryShapes, 1, VOCABULARY)
    await load.call({
      kind: 'init',
      pgUrl: cluster.postgres.url,
      writer: WRITER,
    })
    const windowCtx = {
      load,
      admin,
      windowMs: CONFIG.windowMs,
      burstSeconds: CONFIG.burstSeconds,
      log,
    }

    if (!fanoutOnly) {
      log('baseline: raw pgoutput decode, no shapes')
      const baseline = new Baseline(admin, cluster.postgres.url, (m, at) =>
        load.seen(m, at),
      )
      await baseline.create(['items'])
      await baseline.start()
      const baseLatency = await load.call({
        kind: 'latency',
        teams: TEAMS,
        samples: CONFIG.samples,
        tag: 'base',
        timeoutMs: SAMPLE_TIMEOUT_MS,
      })
      const baseWindows: WindowResult[][] = []
      for (const workload of WORKLOADS)
        baseWindows.push(
          await throughputWindows(workload, 'baseline', {
            ...windowCtx,
            consumer: baseline,
          }),
        )
      await baseline.drop()
      // The engine starts from the table contents the baseline started from.
      await admin.query('truncate items restart identity')
      await seed(admin, 'items', TEAMS, SEED_PER_TEAM, VOCABULARY)

      log('engine: starting')
      running = await startEngine(cluster, DEADLINE)
      const { database, slot, shapeUrl } = running
      await load.call({ kind: 'engine', shapeUrl })
      const consumer = { slot, position: () => database.globalLsn }

      let following = 0
      const steps = throughputOnly
        ? [TEAMS]
        : [...CONFIG.shapeSteps.filter((n) => n < TEAMS), TEAMS]
      for (const shapes of steps) {
        log(`engine: ${shapes} team shapes, latency`)
        const specs = Array.from({ length: shapes - following }, (_, i) =>
          teamSpec(following + i + 1),
        )
        const follow = await load.call({ kind: 'follow', specs })
        if (follow.failed > 0)
          throw new Error(
            `${follow.failed} followers failed: ${follow.failure}`,
          )
        following = shapes
        const engine = await load.call({
          kind: 'latency',
          teams: shapes,
          samples: throughputOnly ? 20 : CONFIG.samples,
          tag: `engine-${shapes}`,
          timeoutMs: SAMPLE_TIMEOUT_MS,
        })
        report.latency.push({
          shapes,
          connectMs: follow.ms,
          engine,
          baseline: baseLatency,
        })
      }

      for (const [i, workload] of WORKLOADS.entries()) {
        let connectMs = 0
        if (workload.name === 'LIKE') {
          await load.call({ kind: 'unfollow' })
          const specs = Array.from({ length: CONFIG.likeShapes }, (_, w) =>
            likeSpec(w),
          )
          const follow = await load.call({ kind: 'follow', specs })
          if (follow.failed > 0)
            throw new Error(
              `${follow.failed} followers failed: ${follow.failure}`,
            )
          following = specs.length
          connectMs = follow.ms
        }
        const engine = await profiled(
          workload.name === 'team_id = $1' ? profileFile : undefined,
          !cpuProfileFile,
          () =>
            throughputWindows(workload, 'engine', { ...windowCtx, consumer }),
        )
        report.throughput.push({
          workload: workload.name,
          shapes: following,
          target: workload.target,
          connectMs,
          engine,
          baseline: baseWindows[i] ?? [],
        })
      }
      await load.call({ kind: 'unfollow' })
      if (!throughputOnly) {
        report.cpuPerThousandChanges = await measureShapeCost({
          load,
          admin,
          consumer,
          windowMs: CONFIG.costWindowMs,
          writer: WRITER,
          spec: teamSpec,
          log,
        })
        report.snapshot = await measureSnapshots({
          admin,
          pgUrl: cluster.postgres.url,
          running,
          rows: CONFIG.snapshotRows,
          largeRows: null,
          log,
        })
        // A wrong row count or checksum fails the run, as it does `--only snapshot`.
        for (const failure of report.snapshot.failures)
          report.errors.push(`snapshot: ${failure}`)

        log(`engine: ${CONFIG.memoryShapes} idle shapes`)
        await load.call({ kind: 'disconnect' })
        report.memory = await measureMemory(
          load,
          CONFIG.memoryShapes,
          memberSpec,
          DEADLINE,
        )
      }
    }

    if (!throughputOnly) {
      running ??= await startEngine(cluster, DEADLINE)
      await load.call({ kind: 'disconnect' })
      report.fanout = await measureFanout({
        load,
        admin,
        engine: running,
        clients: CONFIG.fanoutClients,
        changes: CONFIG.fanoutChanges,
        log,
      })
    }
  } catch (error) {
    report.errors.push((error as Error).stack ?? String(error))
  } finally {
    log('cleaning up')
    await load
      .close()
      .catch((e: Error) => report.errors.push(`load: ${e.message}`))
    await running
      ?.stop()
      .catch((e: Error) => report.errors.push(`engine: ${e.message}`))
    await cluster
      .close()
      .catch((e: Error) => report.errors.push(`cleanup: ${e.message}`))
  }
  report.seconds = (performance.now() - started) / 1000
  report.loadAverage.end = loadavg()[0] ?? 0
  const used = process.cpuUsage(cpu)
  report.engineCpuSeconds = (used.user + used.system) / 1e6
  return report
}

/** `--subset-in`: its own Postgres and engine, its figures, nothing else. */
async function subsetIn(): Promise<void> {
  const cluster = await startCluster()
  let running: RunningEngine | null = null
  try {
    running = await startEngine(cluster, DEADLINE)
    printSubsetIn(await measureSubsetIn(cluster.admin, running, MAX_LIST_ITEMS))
  } finally {
    await running?.stop()
    await cluster.close()
  }
}

/** `--subqueries`: its own Postgres, engine and load process, its figures, nothing else. */
async function subqueries(): Promise<void> {
  const config = {
    shapes: SHAPES ?? 1_000,
    samples: quick ? 20 : 100,
    changes: quick ? 2_000 : 10_000,
  }
  await withOwnRig(
    (admin) => seedSubqueries(admin, config),
    async ({ load, admin, consumer, prepared }) =>
      printSubqueries(
        await measureSubqueries({
          load,
          admin,
          consumer,
          config,
          membership: prepared.membership,
          log,
          // `--cpu-profile`: the subquery shapes' burst.
          profile: cpuProfileFile
            ? (run) => profiled(cpuProfileFile, false, run)
            : null,
        }),
      ),
  )
}

/** `--only snapshot`: the initial-snapshot figures alone, on their own Postgres and engine. */
async function snapshots(): Promise<boolean> {
  const cluster = await startCluster()
  let running: RunningEngine | null = null
  try {
    running = await startEngine(cluster, DEADLINE)
    const engine = running
    // `--cpu-profile` or `--heap-profile`: the whole of it, the large reads most of it.
    const figures = await profiled(profileFile, !cpuProfileFile, () =>
      measureSnapshots({
        admin: cluster.admin,
        pgUrl: cluster.postgres.url,
        running: engine,
        rows: quick ? 100_000 : 1_000_000,
        largeRows: quick ? null : 3_000_000,
        log,
      }),
    )
    printSnapshots(figures)
    return figures.failures.length === 0
  } finally {
    await running?.stop()
    await cluster.close()
  }
}

/**
 * `--only shape-cost`: the CPU per change at 1,000 and 10,000 team shapes alone, on its own
 * Postgres, engine and load process; `--cpu-profile FILE` writes a profile of each step's
 * window (FILE-1000.cpuprofile, FILE-10000.cpuprofile), `--heap-profile FILE` what each
 * window's allocations left for the old generation (FILE-1000.heapprofile, ...).
 */
async function shapeCost(): Promise<void> {
  await withOwnRig(
    async () => ({ writer: WRITER }),
    async ({ load, admin, consumer }) =>
      printShapeCost(
        await measureShapeCost({
          load,
          admin,
          consumer,
          windowMs: CONFIG.costWindowMs,
          writer: WRITER,
          spec: teamSpec,
          log,
          profile: profileFile
            ? (shapes, run) =>
                profiled(
                  `${profileFile.replace(/\.(cpu|heap)profile$/, '')}-${shapes}${cpuProfileFile ? '.cpuprofile' : '.heapprofile'}`,
                  !cpuProfileFile,
                  run,
                )
            : undefined,
        }),
      ),
  )
}

const only = flagValue('--only')
if (only !== undefined && only !== 'snapshot' && only !== 'shape-cost') {
  console.error(`--only takes snapshot or shape-cost, not ${only}`)
  process.exit(2)
}
if (only === 'snapshot') process.exit((await snapshots()) ? 0 : 1)
if (only === 'shape-cost') {
  await shapeCost()
  process.exit(0)
}
if (process.argv.includes('--subqueries')) {
  await subqueries()
  process.exit(0)
}
if (process.argv.includes('--subset-in')) {
  await subsetIn()
  process.exit(0)
}
const report = await main()
printReport(report)
process.exit(report.errors.length > 0 ? 1 : 0)
