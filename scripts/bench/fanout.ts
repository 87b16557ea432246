// The fan-out phase: N live long-poll clients of one shape through nginx with the repo's
// shape-cache config (deploy/nginx/shape-cache.conf), run by the load process. Per change: when
// each client saw the row (commit-to-client), and how many requests reached the engine.
import type pg from 'pg'
import { startCachingProxy } from '../nginx.ts'
import { FANOUT_MARK } from './fanout-clients.ts'
import type { LoadProcess } from './ipc.ts'
import type { RunningEngine } from './env.ts'
import { now } from './workload.ts'

export type FanoutReport = {
  clients: number
  connectMs: number
  /** Requests that reached the engine while every client connected (this step's shape). */
  originToConnect: number
  changes: number
  /** Commit-to-client of every (client, change), ms; `timeouts` never arrived. */
  latency: { samples: number[]; timeouts: number }
  originPerChange: number
  failure: string | null
}

const ARRIVAL_TIMEOUT_MS = 30_000

export async function measureFanout(options: {
  load: LoadProcess
  admin: pg.Client
  engine: RunningEngine
  clients: number[]
  changes: number
  log: (line: string) => void
}): Promise<FanoutReport[]> {
  const { load, admin, engine, log } = options
  const most = Math.max(...options.clients)
  const proxy = await startCachingProxy(new URL(engine.shapeUrl).origin, {
    connections: most,
  })
  const reports: FanoutReport[] = []
  try {
    for (const clients of options.clients) {
      log(`fan-out: ${clients} clients through nginx`)
      // A shape of its own per step (its own where): no step starts from another's cache.
      const spec = { table: 'fan', where: `body <> 'step ${clients}'` }
      const before = engine.shapeRequests(spec.where)
      const follow = await load.call({
        kind: 'fanout-follow',
        shapeUrl: `${proxy.origin}/v1/shape`,
        spec,
        clients,
      })
      const report: FanoutReport = {
        clients,
        connectMs: follow.ms,
        originToConnect: engine.shapeRequests(spec.where) - before,
        changes: options.changes,
        latency: { samples: [], timeouts: 0 },
        originPerChange: NaN,
        failure: follow.failed > 0 ? follow.failure : null,
      }
      reports.push(report)
      if (report.failure) break
      const start = engine.shapeRequests(spec.where)
      for (let i = 0; i < options.changes; i++) {
        const marker = `${FANOUT_MARK}${clients}-${i}`
        const t0 = now()
        await admin.query('insert into fan (body) values ($1)', [marker])
        const seen = await load.call({
          kind: 'fanout-arrivals',
          marker,
          timeoutMs: ARRIVAL_TIMEOUT_MS,
        })
        for (const at of seen.times) report.latency.samples.push(at - t0)
        report.latency.timeouts += seen.missing
      }
      report.originPerChange =
        (engine.shapeRequests(spec.where) - start) / options.changes
      await load.call({ kind: 'fanout-stop' })
    }
  } finally {
    await proxy.stop()
  }
  return reports
}
