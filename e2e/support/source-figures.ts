// Known figures of a source written straight into the control plane, as the server's sampler
// and the engine's counters would write them: the source page's charts, live shapes columns,
// invalidation log and dialogs are under test here, not the sampling.
import type pg from 'pg'

/** Minute points (the last hour) and hour points (the day and the week) seeded. */
export const SEEDED = { minutes: 30, hours: 100, invalidations: 55 }

/** The two live shapes seeded: 30 clients between them, the first with 2 stalled requests. */
export const SHAPES = {
  items: {
    handle: 'e2e-items-1',
    clients: 12,
    stalled: 2,
    requestsPerMinute: 120,
    bytesPerMinute: 1.5 * 1024 * 1024,
    changesPerMinute: 45,
    rows: 1000,
    logEntries: 1500,
  },
  orders: { handle: 'e2e-orders-1', clients: 18 },
}

/** The newest invalidation: what the log lists first. */
export const NEWEST_INVALIDATION = {
  cause: 'dependency',
  table: 'orders',
  where: 'team_id in (select id from teams)',
  clients: 7,
  bytesReread: 3 * 1024 * 1024,
}

const CAUSES = [
  'clear_cache',
  'schema_change',
  'slot_lost',
  'deleted',
  'evicted',
  'dependency',
]

type Queryable = Pick<pg.Pool, 'query'>

export async function seedFigures(db: Queryable, sourceId: string) {
  await seedPoints(db, sourceId)
  await seedShapes(db, sourceId)
  await seedInvalidations(db, sourceId)
}

async function seedPoints(db: Queryable, sourceId: string) {
  // Retained WAL grows 1 MiB a point towards now; the shapes' points ride along.
  const points = (resolution: string, unit: string, count: number) =>
    db.query(
      `with p as (
         select g, date_trunc($3, now()) - g * ('1 ' || $3)::interval as at
           from generate_series(0, $4 - 1) g)
       insert into source_metrics (source_id, resolution, at, samples, changes_per_second,
         writes_per_minute, retained_wal_bytes, lag_bytes, clients, requests_per_minute,
         bytes_per_minute, snapshots, snapshot_ms_max)
       select $1, $2, at, 1, 10 + g, 600 + g, ($4 - g) * 1048576, 4096 * g, 30, 120,
              2097152, 0, null from p`,
      [sourceId, resolution, unit, count],
    )
  const shapePoints = (resolution: string, unit: string, count: number) =>
    db.query(
      `with p as (
         select g, date_trunc($3, now()) - g * ('1 ' || $3)::interval as at
           from generate_series(0, $4 - 1) g)
       insert into source_shape_metrics (source_id, resolution, at, handle, label, samples,
         clients, requests_per_minute, bytes_per_minute)
       select $1, $2, at, s.handle, s.label, 1, s.clients, 60, s.bytes from p,
         (values ($5, 'items where team_id = $1', 12, 1572864),
                 ($6, 'orders', 18, 524288)) s(handle, label, clients, bytes)`,
      [
        sourceId,
        resolution,
        unit,
        count,
        SHAPES.items.handle,
        SHAPES.orders.handle,
      ],
    )
  await points('minute', 'minute', SEEDED.minutes)
  await points('hour', 'hour', SEEDED.hours)
  await shapePoints('minute', 'minute', SEEDED.minutes)
  await shapePoints('hour', 'hour', SEEDED.hours)
}

async function seedShapes(db: Queryable, sourceId: string) {
  const { items, orders } = SHAPES
  await db.query(
    `insert into source_shapes (source_id, handle, table_schema, table_name, where_clause,
       params, row_count, log_bytes, created_at, clients, requests_per_minute,
       bytes_per_minute, changes_per_minute, stalled_requests, log_entries,
       last_rotation_at, last_rotation_cause)
     values ($1, $2, 'public', 'items', 'team_id = $1', '["7"]', $3, 65536, now(), $4, $5,
             $6, $7, $8, $9, now() - interval '5 minutes', 'schema_change'),
            ($1, $10, 'public', 'orders', null, '[]', 10, 4096, now(), $11, 1, 100, 0, 0,
             10, null, null)`,
    [
      sourceId,
      items.handle,
      items.rows,
      items.clients,
      items.requestsPerMinute,
      items.bytesPerMinute,
      items.changesPerMinute,
      items.stalled,
      items.logEntries,
      orders.handle,
      orders.clients,
    ],
  )
}

async function seedInvalidations(db: Queryable, sourceId: string) {
  // The older ones cycle through every cause; the newest is a known one.
  await db.query(
    `insert into source_invalidations (source_id, at, handle, table_schema, table_name,
       where_clause, cause, clients, bytes_reread)
     select $1, now() - (g + 1) * interval '1 minute', 'old-' || g, 'public', 'items', null,
            ($2::text[])[1 + g % 6], 1, 1024
       from generate_series(1, $3 - 1) g`,
    [sourceId, CAUSES, SEEDED.invalidations],
  )
  const newest = NEWEST_INVALIDATION
  await db.query(
    `insert into source_invalidations (source_id, at, handle, table_schema, table_name,
       where_clause, cause, clients, bytes_reread)
     values ($1, now() - interval '30 seconds', 'newest', 'public', $2, $3, $4, $5, $6)`,
    [
      sourceId,
      newest.table,
      newest.where,
      newest.cause,
      newest.clients,
      newest.bytesReread,
    ],
  )
}
