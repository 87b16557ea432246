// The measurements that need more than one call: a workload's throughput windows and memory
// per idle shape.
import type pg from 'pg'
import type { ShapeSpec } from './client.ts'
import { findGc, openFiles } from './env.ts'
import type { LoadProcess } from './ipc.ts'
import type { MemoryReport } from './report.ts'
import { runWindow, type Consumer, type WindowResult } from './window.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const DRAIN_TIMEOUT_MS = 30_000
/** File descriptors kept free while creating shapes: connections, sockets, cleanup. */
const FD_RESERVE = 300
const CREATE_BATCH = 250

/** `offered`: the paced window's rate, when not 10% above the target (`--offer`). */
export type Workload = { name: string; target: number; offered?: number }

/**
 * A workload's windows: paced 10% above its target for windowMs (kept up or not), then a burst
 * of burstSeconds x target changes written as fast as possible (how fast it catches up).
 */
export async function throughputWindows(
  workload: Workload,
  tag: string,
  ctx: {
    load: LoadProcess
    admin: pg.Client
    consumer: Consumer
    windowMs: number
    burstSeconds: number
    log: (line: string) => void
  },
): Promise<WindowResult[]> {
  const results: WindowResult[] = []
  for (const [mode, offered, maxRows, durationMs] of [
    [
      'paced',
      Math.round(workload.offered ?? workload.target * 1.1),
      null,
      ctx.windowMs,
    ],
    ['burst', null, workload.target * ctx.burstSeconds, ctx.windowMs],
  ] as const) {
    ctx.log(`${tag}: ${workload.name} ${mode} window`)
    results.push(
      await runWindow({
        ...ctx,
        offeredPerSec: offered,
        maxRows,
        durationMs,
        drainTimeoutMs: DRAIN_TIMEOUT_MS,
        name: `${tag}-${workload.target}-${mode}`,
      }),
    )
  }
  return results
}

/** Engine process memory before and after `count` idle shapes, after full GCs. */
export async function measureMemory(
  load: LoadProcess,
  count: number,
  spec: (n: number) => ShapeSpec,
  deadline: number,
): Promise<MemoryReport> {
  const gc = findGc()
  const settle = async () => {
    await sleep(300)
    for (let i = 0; i < 3; i++) gc?.()
  }
  await settle()
  const before = process.memoryUsage()
  const fdsBefore = openFiles()
  let created = 0
  let stoppedBy: string | null = null
  for (let n = 1; n <= count && !stoppedBy; n += CREATE_BATCH) {
    if (performance.now() > deadline) {
      stoppedBy = 'out of time'
      break
    }
    const files = openFiles()
    if (files && files.open + FD_RESERVE + CREATE_BATCH * 2 > files.limit) {
      stoppedBy = `${files.open} files open, limit ${files.limit}: each shape keeps its log and index files open`
      break
    }
    const specs = Array.from(
      { length: Math.min(CREATE_BATCH, count - n + 1) },
      (_, i) => spec(n + i),
    )
    const result = await load.call({ kind: 'create', specs, concurrency: 8 })
    created += result.created
    if (result.failure) stoppedBy = result.failure
  }
  await load.call({ kind: 'disconnect' })
  await settle()
  const after = process.memoryUsage()
  const fdsAfter = openFiles()
  return {
    requested: count,
    created,
    stoppedBy,
    gc: gc !== null,
    rssBefore: before.rss,
    rssAfter: after.rss,
    heapBefore: before.heapUsed,
    heapAfter: after.heapUsed,
    fdsPerShape:
      fdsBefore && fdsAfter && created > 0
        ? (fdsAfter.open - fdsBefore.open) / created
        : null,
  }
}
