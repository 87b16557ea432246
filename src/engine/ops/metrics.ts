// The Prometheus metrics of one server or standalone engine (GET /metrics on METRICS_PORT,
// metrics-app.ts): the process's own (prom-client's defaults: event-loop delay, RSS and heap,
// open fds, GC), HTTP requests by route pattern and status with their latency (the server's),
// and per source what the process already holds in memory (facts.ts). A scrape sends no query
// to any database: it reads the facts once and every source metric is filled from that one read.
// Here, in the engine, so both the server and `npm run engine` use it.
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
} from 'prom-client'
import type { SourceFacts } from './facts.ts'

export type Metrics = {
  /** Records one answered HTTP request (ops/http-metrics.ts). */
  observeRequest(
    route: string,
    method: string,
    status: number,
    seconds: number,
  ): void
  /** The exposition: content type and text. */
  scrape(): Promise<{ contentType: string; body: string }>
}

type SourceLabel = 'source_id' | 'region'
const SOURCE_LABELS: SourceLabel[] = ['source_id', 'region']

// The standalone engine's database has no region: its series carry source_id alone.
const labelsOf = (source: SourceFacts) =>
  source.region === undefined
    ? { source_id: source.id }
    : { source_id: source.id, region: source.region }

export function createMetrics(options: {
  /** The sources this process holds, from memory. */
  sources: () => SourceFacts[]
}): Metrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  let facts: SourceFacts[] = []

  /** A per-source gauge filled from this scrape's facts; sources without a value are left out. */
  const sourceGauge = (
    name: string,
    help: string,
    value: (source: SourceFacts) => number | null,
  ) =>
    new Gauge({
      name,
      help,
      labelNames: SOURCE_LABELS,
      registers: [registry],
      collect() {
        this.reset()
        for (const source of facts) {
          const v = value(source)
          if (v !== null) this.set(labelsOf(source), v)
        }
      },
    })

  new Gauge({
    name: 'sluice_sources_held',
    help: 'Sources this server holds (claimed and attached to its engine).',
    registers: [registry],
    collect() {
      this.set(facts.length)
    },
  })
  new Gauge({
    name: 'sluice_source_state',
    help: 'A source held here, with its state as last written (1 for the current state).',
    labelNames: [...SOURCE_LABELS, 'state'],
    registers: [registry],
    collect() {
      this.reset()
      for (const source of facts)
        this.set({ ...labelsOf(source), state: source.state }, 1)
    },
  })
  sourceGauge(
    'sluice_source_replication_lag_bytes',
    "Bytes the slot's confirmed position trails the source's WAL, as last measured (every 15 s).",
    (s) => s.lagBytes,
  )
  sourceGauge(
    'sluice_source_retained_wal_bytes',
    'WAL the source keeps for the slot, as last measured (every 15 s).',
    (s) => s.retainedBytes,
  )
  sourceGauge(
    'sluice_source_shapes',
    'Shapes the engine holds.',
    (s) => s.shapes,
  )
  sourceGauge(
    'sluice_source_live_clients',
    'Requests waiting for a change on any of its shapes (long-polls and SSE).',
    (s) => s.liveClients,
  )
  sourceGauge(
    'sluice_source_log_bytes',
    "Bytes of the source's shape logs on disk.",
    (s) => s.logBytes,
  )
  new Counter({
    name: 'sluice_source_changes_total',
    help: 'Row changes replicated from the source since it was attached here; rate() gives changes/s.',
    labelNames: SOURCE_LABELS,
    registers: [registry],
    collect() {
      this.reset()
      for (const source of facts) this.inc(labelsOf(source), source.changes)
    },
  })

  const labelNames = ['route', 'method', 'status'] as const
  const requests = new Counter({
    name: 'sluice_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status.',
    labelNames,
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'sluice_http_request_duration_seconds',
    help: 'Time until the answer started, by route pattern, method and status (long-polls wait up to 20 s).',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  })

  return {
    observeRequest(route, method, status, seconds) {
      const labels = { route, method, status: String(status) }
      requests.inc(labels)
      duration.observe(labels, seconds)
    },
    async scrape() {
      facts = options.sources()
      return {
        contentType: registry.contentType,
        body: await registry.metrics(),
      }
    },
  }
}
