// What the load process writes: single-insert latency samples, and windows of paced or
// unthrottled batches of inserts + updates with probe rows timed from commit to consumer.
import type pg from 'pg'
import { body } from './env.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Milliseconds since the epoch, sub-ms precise: comparable between the two processes. */
export const now = () => performance.timeOrigin + performance.now()

/** Rows with a known body, and when a consumer reported seeing each one. */
export class Markers {
  private waiting = new Map<string, (at: number) => void>()

  /** Resolves with the arrival time, or null after timeoutMs. */
  expect(marker: string, timeoutMs: number): Promise<number | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(marker)
        resolve(null)
      }, timeoutMs)
      this.waiting.set(marker, (at) => {
        clearTimeout(timer)
        this.waiting.delete(marker)
        resolve(at)
      })
    })
  }

  seen(value: string | null | undefined, at: number): void {
    if (this.waiting.size === 0 || !value) return
    this.waiting.get(value)?.(at)
  }
}

// Marks written during windows go to team 1 and contain k0x, the first LIKE shape's word:
// every phase's followers see them.
const MARK_PREFIX = 'k0x mark-'

/** Bodies the benchmark waits for; everything else is workload. */
export const isMarker = (value: string | null | undefined) =>
  !!value && (value.startsWith('lat-') || value.startsWith(MARK_PREFIX))

export type LatencyResult = { samples: number[]; timeouts: number }

/** t0 just before an autocommit INSERT is sent; t1 when the consumer sees the row. */
export async function measureLatency(options: {
  client: pg.Client
  teams: number
  samples: number
  markers: Markers
  tag: string
  timeoutMs: number
}): Promise<LatencyResult> {
  const samples: number[] = []
  let timeouts = 0
  for (let k = 0; k < options.samples; k++) {
    const team = 1 + Math.floor(Math.random() * options.teams)
    const marker = `lat-${options.tag}-${k}`
    const seen = options.markers.expect(marker, options.timeoutMs)
    const t0 = now()
    await options.client.query({
      name: 'bench-latency-insert',
      text: 'insert into items (team_id, body) values ($1, $2)',
      values: [team, marker],
    })
    const t1 = await seen
    if (t1 === null) timeouts++
    else samples.push(t1 - t0)
    // Do not phase-lock with the engine's timers.
    await sleep(Math.random() * 5)
  }
  return { samples, timeouts }
}

const BATCH_SQL = `
  with ins as (
    insert into items (team_id, body)
    select * from unnest($1::int[], $2::text[]) returning 1
  ), upd as (
    update items i set body = u.body
      from unnest($3::bigint[], $4::text[]) as u(id, body)
     where i.id = u.id returning 1
  )
  select ((select count(*) from ins) + (select count(*) from upd))::int as n`

export type WriterShape = {
  teams: number
  vocabulary: number
  /** Seeded ids 1..updatePool that updates pick from. */
  updatePool: number
  inserts: number
  updates: number
}

/**
 * One writing connection: each batch is one transaction of inserts (random teams) and updates
 * of seeded rows (ids of its own parity, so two writers never wait on each other's locks).
 */
export class Writer {
  rows = 0

  constructor(
    readonly client: pg.Client,
    private readonly parity: number,
    private shape: WriterShape,
  ) {}

  reshape(shape: WriterShape): void {
    this.shape = shape
  }

  get batchSize(): number {
    return this.shape.inserts + this.shape.updates
  }

  reset(): void {
    this.rows = 0
  }

  async batch(): Promise<void> {
    const { teams, vocabulary, updatePool, inserts, updates } = this.shape
    const team = Array.from(
      { length: inserts },
      () => 1 + Math.floor(Math.random() * teams),
    )
    const bodies = Array.from({ length: inserts }, () => body(vocabulary))
    const ids = new Set<number>()
    while (ids.size < updates) {
      const half = Math.floor(Math.random() * (updatePool / 2))
      ids.add(half * 2 + this.parity + 1)
    }
    const sorted = [...ids].sort((a, b) => a - b)
    const updated = sorted.map(() => body(vocabulary))
    const { rows } = await this.client.query<{ n: number }>({
      name: 'bench-batch',
      text: BATCH_SQL,
      values: [team, bodies, sorted, updated],
    })
    this.rows += rows[0]?.n ?? 0
  }
}

/**
 * Commits a mark row for team 1; `seen` resolves when a consumer has it (and so everything
 * committed before it), null after timeoutMs.
 */
export async function commitMark(
  single: pg.Client,
  markers: Markers,
  name: string,
  timeoutMs: number,
): Promise<{ sent: number; seen: Promise<number | null> }> {
  const marker = `${MARK_PREFIX}${name}`
  const seen = markers.expect(marker, timeoutMs)
  const sent = now()
  await single.query({
    name: 'bench-mark',
    text: 'insert into items (team_id, body) values (1, $1)',
    values: [marker],
  })
  return { sent, seen }
}

type Probe = { atMs: number; delayMs: number | null }

export type WriteResult = {
  rows: number
  seconds: number
  /** From the last write until a row committed after it reached the consumer. */
  drainMs: number | null
  /** Rows committed every PROBE_EVERY_MS during the window: commit-to-consumer delay. */
  probes: Probe[]
  /**
   * Share of the window this (load) process's event loop was busy: writers and HTTP followers.
   * Near 1, the followers read late and the probes' delays are partly theirs.
   */
  loopUtilization: number
  cpuMsPerThousand: number
}

// Often enough for a p99 from one 10 s window (200 probes).
const PROBE_EVERY_MS = 50

/**
 * Writes for durationMs, paced at offeredPerSec over all writers, or as fast as they can until
 * maxRows; a third connection commits probe rows meanwhile. Then a fence row, and waits for it.
 */
export async function writeWindow(options: {
  writers: Writer[]
  single: pg.Client
  markers: Markers
  offeredPerSec: number | null
  maxRows: number | null
  durationMs: number
  drainTimeoutMs: number
  name: string
}): Promise<WriteResult> {
  const { writers, single, markers, offeredPerSec } = options
  const mark = (tag: string) =>
    commitMark(
      single,
      markers,
      `${options.name}-${tag}`,
      options.durationMs + options.drainTimeoutMs,
    )
  for (const w of writers) w.reset()
  const loop0 = performance.eventLoopUtilization()
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  const end = t0 + options.durationMs
  const more = () =>
    performance.now() < end &&
    (options.maxRows === null ||
      writers.reduce((n, w) => n + w.rows, 0) < options.maxRows)
  const probing: Array<Promise<Probe>> = []
  const prober = (async () => {
    for (let k = 0; more(); k++) {
      await sleep(PROBE_EVERY_MS)
      if (!more()) break
      const atMs = performance.now() - t0
      const { sent, seen } = await mark(`probe${k}`)
      probing.push(
        seen.then((at) => ({ atMs, delayMs: at === null ? null : at - sent })),
      )
    }
  })()
  await Promise.all(
    writers.map(async (writer, i) => {
      // Paced: batch k of writer i is due at t0 + (k + i / writers) * interval.
      const interval =
        offeredPerSec === null
          ? 0
          : (writer.batchSize / (offeredPerSec / writers.length)) * 1000
      let due = t0 + (i / writers.length) * interval
      while (more()) {
        const wait = due - performance.now()
        if (wait > 0) await sleep(wait)
        if (!more()) break
        await writer.batch()
        due += interval
      }
    }),
  )
  const writesEnd = now()
  const seconds = (performance.now() - t0) / 1000
  await prober
  const fenceAt = await (await mark('fence')).seen
  const cpu = process.cpuUsage(cpu0)
  const rows = writers.reduce((n, w) => n + w.rows, 0)
  return {
    loopUtilization: performance.eventLoopUtilization(loop0).utilization,
    cpuMsPerThousand: (cpu.user + cpu.system) / 1000 / (rows / 1000),
    rows,
    seconds,
    drainMs: fenceAt === null ? null : fenceAt - writesEnd,
    probes: await Promise.all(probing),
  }
}
