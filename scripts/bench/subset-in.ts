// `bench:engine -- --subset-in`: how long subset requests with huge IN lists hold the engine's
// event loop. Three POSTs at once, each listing 10,000 ids (as params, then as
// literals), and three at the largest list accepted, against a shape of 10,000 rows; the
// engine's loop delay is read with monitorEventLoopDelay in this, the engine's, process, and
// first with no request at all.
import { monitorEventLoopDelay } from 'node:perf_hooks'
import type pg from 'pg'
import type { RunningEngine } from './env.ts'

const ROWS = 10_000
const AT_ONCE = 3
const ROUNDS = 5
/** How long the loop is watched with no request, for comparison. */
const IDLE_MS = 2_000
/** The loop lag the engine is held to while it answers them. */
const SUBSET_IN_TARGET_MS = 50

export type SubsetInCase = {
  name: string
  items: number
  statuses: number[]
  /** The worst loop delay over the rounds, and its 99th percentile. */
  maxLagMs: number
  p99LagMs: number
}

type Body = { where: string; params?: string[] }

const ids = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1))

function cases(largest: number): Array<{ name: string; body: Body }> {
  const asParams = (n: number) => ({
    where: `id IN (${ids(n).map((id) => `$${id}`)})`,
    params: ids(n),
  })
  const asLiterals = (n: number) => ({ where: `id IN (${ids(n)})` })
  return [
    { name: `${ROWS} params`, body: asParams(ROWS) },
    { name: `${ROWS} literals`, body: asLiterals(ROWS) },
    // Just under the clause's 10,000 expressions: what was accepted before lists had a limit.
    { name: '9990 literals', body: asLiterals(9_990) },
    { name: `${largest} params`, body: asParams(largest) },
    { name: `${largest} literals`, body: asLiterals(largest) },
  ]
}

async function post(url: string, body: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  })
  await response.arrayBuffer()
  return response.status
}

export async function measureSubsetIn(
  admin: pg.Client,
  engine: RunningEngine,
  largest: number,
): Promise<SubsetInCase[]> {
  await admin.query(
    `create table subset_in (id int primary key, body text);
     insert into subset_in select i, 'row ' || i from generate_series(1, ${ROWS}) i`,
  )
  // The shape exists before the subsets ask for it, as a client's does.
  const first = await fetch(`${engine.shapeUrl}?table=subset_in&offset=-1`)
  await first.arrayBuffer()
  const handle = first.headers.get('electric-handle') ?? ''
  const url = `${engine.shapeUrl}?table=subset_in&offset=-1&handle=${handle}`
  // The loop's delay with no request at all, as long: on a shared machine, being descheduled
  // reads as loop lag too, and this says how much of the figures that is.
  const idle = monitorEventLoopDelay({ resolution: 1 })
  idle.enable()
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS))
  idle.disable()
  const results: SubsetInCase[] = [
    {
      name: 'no requests',
      items: 0,
      statuses: [],
      maxLagMs: idle.max / 1e6,
      p99LagMs: idle.percentile(99) / 1e6,
    },
  ]
  for (const { name, body } of cases(largest)) {
    const items = body.where.split(',').length
    // Encoded before the measurement: the client's work is not the engine's.
    const text = JSON.stringify(body)
    const round = () =>
      Promise.all(Array.from({ length: AT_ONCE }, () => post(url, text)))
    // One round unmeasured: code loaded and optimised, as in a server that has served some.
    await round()
    const lag = monitorEventLoopDelay({ resolution: 1 })
    let statuses: number[] = []
    lag.enable()
    for (let i = 0; i < ROUNDS; i++) statuses = await round()
    lag.disable()
    results.push({
      name,
      items,
      statuses,
      maxLagMs: lag.max / 1e6,
      p99LagMs: lag.percentile(99) / 1e6,
    })
  }
  return results
}

/** One line per case, the miss spelled out, and the BENCH_JSON line. */
export function printSubsetIn(results: SubsetInCase[]): void {
  for (const r of results) {
    const verdict =
      r.maxLagMs <= SUBSET_IN_TARGET_MS
        ? 'ok'
        : `MISS: the loop was held ${r.maxLagMs.toFixed(0)} ms, over ${SUBSET_IN_TARGET_MS}`
    console.log(
      `subset IN, ${AT_ONCE} at once, ${r.name.padEnd(16)} answers ${r.statuses.join('/')}  loop lag max ${r.maxLagMs.toFixed(1)} ms, p99 ${r.p99LagMs.toFixed(1)} ms (target <= ${SUBSET_IN_TARGET_MS})  ${verdict}`,
    )
  }
  console.log(
    `BENCH_JSON ${JSON.stringify({ subsetIn: results, targetMs: SUBSET_IN_TARGET_MS })}`,
  )
}
