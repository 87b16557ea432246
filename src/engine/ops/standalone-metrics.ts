// The standalone engine's metrics (`npm run engine` with METRICS_PORT): its one database's
// state, replication lag and retained WAL (measured every 15 s, so a scrape sends no query),
// changes, shapes, live clients and log bytes, and the process's own, on a port of their own.
import { serve } from '@hono/node-server'
import type { ShapeDatabase } from '../database.ts'
import { engineCounters, type SourceFacts } from './facts.ts'
import { createMetrics } from './metrics.ts'
import { metricsApp } from './metrics-app.ts'
import { measureSlot, type HealthReading } from './slot-measure.ts'

const MEASURE_INTERVAL_MS = 15_000

export type StandaloneMetrics = {
  /** Measures the slot now (on becoming active: the gauges are there at once). */
  measure(): void
  close(): void
}

export function serveStandaloneMetrics(options: {
  id: string
  database: ShapeDatabase
  port: number
  host: string
  onListening: (port: number) => void
}): StandaloneMetrics {
  const { id, database } = options
  let health: HealthReading | null = null
  const measure = async () => {
    if (database.status !== 'active') return
    // Named by then: found when replication first started (standalone-names.ts).
    const { slot } = database.supervisor.names
    health = await measureSlot(database.pool, slot).catch(() => health)
  }
  void measure()
  const timer = setInterval(() => void measure(), MEASURE_INTERVAL_MS)
  timer.unref()
  const facts = (): SourceFacts => ({
    id,
    state: database.status,
    lagBytes: health?.lagBytes ?? null,
    retainedBytes: health?.retainedBytes ?? null,
    ...engineCounters(database),
  })
  const metrics = createMetrics({ sources: () => [facts()] })
  const server = serve(
    {
      fetch: metricsApp(metrics).fetch,
      port: options.port,
      hostname: options.host,
    },
    (info) => options.onListening(info.port),
  )
  return {
    measure: () => void measure(),
    close() {
      clearInterval(timer)
      server.close()
    },
  }
}
