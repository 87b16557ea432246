// One throughput window, seen from the engine process: the load process writes for a while
// as this side samples how far the consumer (engine or baseline) and its slot trail the WAL.
import type pg from 'pg'
import { walPositions } from './env.ts'
import type { LoadProcess } from './ipc.ts'
import { busyShare, machineCpu } from './machine.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A consumer of the replication stream, as a window sees it. */
export type Consumer = {
  slot: string
  /** Commit LSN of the last transaction it has fully processed. */
  position(): bigint
}

export type WindowResult = {
  /** paced: writers held to offeredPerSec; burst: maxRows as fast as they can. */
  mode: 'paced' | 'burst'
  offeredPerSec: number | null
  rows: number
  seconds: number
  writtenPerSec: number
  /** Rows written over the time until the consumer had them all (window + drain). */
  processedPerSec: number
  walBytesPerSec: number
  /** Commit-to-consumer delay of probe rows: medians over 20-40% and 80-100% of the window. */
  probeDelayStartMs: number | null
  probeDelayEndMs: number | null
  probeDelayMaxMs: number | null
  /** Over every probe of the window (a probe never seen counts as infinitely late). */
  probeDelayP50Ms: number | null
  probeDelayP99Ms: number | null
  /** From the last write until a row committed after it reached the consumer. */
  drainMs: number | null
  /**
   * pg_current_wal_lsn minus the consumer's processed position, sampled in the engine process
   * (medians over 20-40% and 80-100%). Reads low when that process is saturated: its samples
   * wait behind the replication data they would count.
   */
  consumerLagStart: number
  consumerLagEnd: number
  /** pg_current_wal_lsn minus the slot's confirmed_flush_lsn at the start and end. */
  slotLagStart: number | null
  slotLagEnd: number | null
  slotLagMax: number | null
  /** Share of the window the engine process's event loop was busy. */
  loopUtilization: number
  /**
   * CPU the engine process used per 1,000 rows written (window and drain): what a change
   * costs, which other work on the machine disturbs less than it does the delays.
   */
  cpuMsPerThousand: number
  /** The same two for the load process (writers and HTTP followers). */
  load: { loopUtilization: number; cpuMsPerThousand: number }
  /**
   * Share of all the machine's CPUs busy over the window (engine, Postgres, load process and
   * anything else); null where it cannot be read. Near 1, the processes wait for each other.
   */
  machineBusy: number | null
  /** Change messages HTTP followers received per second (engine windows with followers). */
  deliveredPerSec: number
  flat: boolean
}

type Sample = {
  t: number
  current: bigint
  consumerLag: number
  slotLag: number | null
}

/** Nearest-rank percentile of the values; null for none. */
const rank = (values: number[], p: number) => {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? null
}

const median = (values: number[]) => rank(values, 0.5)

export async function runWindow(options: {
  load: LoadProcess
  admin: pg.Client
  consumer: Consumer
  offeredPerSec: number | null
  maxRows: number | null
  durationMs: number
  drainTimeoutMs: number
  name: string
}): Promise<WindowResult> {
  const { load, admin, consumer } = options
  const samples: Sample[] = []
  const sample = async () => {
    const { current, confirmed } = await walPositions(admin, consumer.slot)
    samples.push({
      t: performance.now(),
      current,
      consumerLag: Math.max(0, Number(current - consumer.position())),
      slotLag: confirmed === null ? null : Number(current - confirmed),
    })
    return current
  }
  const walStart = await sample()
  const t0 = performance.now()
  const received0 = load.received
  const loop0 = performance.eventLoopUtilization()
  const cpu0 = process.cpuUsage()
  const machine0 = machineCpu()
  let writing = true
  const sampler = (async () => {
    while (writing) {
      await sleep(200)
      if (writing) await sample()
    }
  })()
  const written = await load.call({
    kind: 'write',
    offeredPerSec: options.offeredPerSec,
    maxRows: options.maxRows,
    durationMs: options.durationMs,
    drainTimeoutMs: options.drainTimeoutMs,
    name: options.name,
  })
  writing = false
  await sampler
  const loopUtilization = performance.eventLoopUtilization(loop0).utilization
  const cpu = process.cpuUsage(cpu0)
  const machineBusy = busyShare(machine0, machineCpu())
  const deliveredPerSec =
    (load.received - received0) / ((performance.now() - t0) / 1000)
  // Not drained in time: let the consumer finish before anything else is measured.
  if (written.drainMs === null)
    await load.call({ kind: 'settle', timeoutMs: 5 * 60_000 })
  const { seconds, drainMs, probes } = written
  const tEnd = t0 + seconds * 1000
  const inWindow = samples.filter((s) => s.t <= tEnd)
  const walEnd = inWindow.at(-1)?.current ?? walStart
  const within = <T extends { t: number }>(
    list: T[],
    from: number,
    to: number,
  ) =>
    list.filter(
      (s) => s.t >= t0 + from * (tEnd - t0) && s.t <= t0 + to * (tEnd - t0),
    )
  const delays = probes.map((p) => ({ t: t0 + p.atMs, delay: p.delayMs }))
  const delayMedian = (from: number, to: number) =>
    median(within(delays, from, to).map((p) => p.delay ?? Infinity))
  const probeDelayStartMs = delayMedian(0.2, 0.4)
  const probeDelayEndMs = delayMedian(0.8, 1)
  const slotLags = inWindow.flatMap((s) =>
    s.slotLag === null ? [] : [s.slotLag],
  )
  const drained = drainMs !== null && drainMs <= 1000
  return {
    mode: options.offeredPerSec === null ? 'burst' : 'paced',
    offeredPerSec: options.offeredPerSec,
    rows: written.rows,
    seconds,
    writtenPerSec: written.rows / seconds,
    processedPerSec:
      drainMs === null
        ? 0
        : written.rows / (seconds + Math.max(0, drainMs) / 1000),
    walBytesPerSec: Number(walEnd - walStart) / seconds,
    probeDelayStartMs,
    probeDelayEndMs,
    probeDelayMaxMs:
      probes.length === 0
        ? null
        : Math.max(...probes.map((p) => p.delayMs ?? Infinity)),
    probeDelayP50Ms: rank(
      probes.map((p) => p.delayMs ?? Infinity),
      0.5,
    ),
    probeDelayP99Ms: rank(
      probes.map((p) => p.delayMs ?? Infinity),
      0.99,
    ),
    drainMs,
    consumerLagStart:
      median(within(inWindow, 0.2, 0.4).map((s) => s.consumerLag)) ?? 0,
    consumerLagEnd:
      median(within(inWindow, 0.8, 1).map((s) => s.consumerLag)) ?? 0,
    slotLagStart: inWindow[0]?.slotLag ?? null,
    slotLagEnd: inWindow.at(-1)?.slotLag ?? null,
    slotLagMax: slotLags.length > 0 ? Math.max(...slotLags) : null,
    loopUtilization,
    cpuMsPerThousand: (cpu.user + cpu.system) / 1000 / (written.rows / 1000),
    load: {
      loopUtilization: written.loopUtilization,
      cpuMsPerThousand: written.cpuMsPerThousand,
    },
    machineBusy,
    deliveredPerSec,
    // Kept up: probes took no longer at the end than early on (+250 ms), and the consumer had
    // everything within a second of the writers stopping. A burst outruns it by design.
    flat:
      options.offeredPerSec !== null &&
      drained &&
      probeDelayStartMs !== null &&
      probeDelayEndMs !== null &&
      probeDelayEndMs - probeDelayStartMs <= 250,
  }
}
