-- Issue 41: what every shape costs and why clients refetched.
--
-- source_shapes gains the engine's per-shape figures, written with the other counters at most
-- once per live-shapes interval (src/server/sources/live-shapes/live-shapes.ts). Totals count
-- since the engine opened the shape; rates are per minute over the last minute, computed by the
-- server from those totals.
alter table source_shapes
  add column clients integer not null default 0,
  add column requests bigint not null default 0,
  add column bytes_sent bigint not null default 0,
  add column changes_written bigint not null default 0,
  add column requests_per_minute double precision not null default 0,
  add column bytes_per_minute double precision not null default 0,
  add column changes_per_minute double precision not null default 0,
  add column stalled_requests integer not null default 0,
  add column log_entries bigint not null default 0,
  add column snapshot_ms integer,
  add column last_rotation_at timestamptz,
  add column last_rotation_cause text;

-- A source's figures over time (src/server/sources/metrics/): one `minute` point per sample
-- (kept an hour) and one `hour` point per hour (kept 7 days), the hour's running aggregate of
-- its minute points: rates averaged, gauges at their peak. Bounded: about 60 + 168 rows a source.
create table source_metrics (
  source_id uuid not null references sources (id) on delete cascade,
  resolution text not null check (resolution in ('minute', 'hour')),
  at timestamptz not null,
  samples integer not null default 1,
  changes_per_second double precision not null,
  writes_per_minute double precision not null,
  retained_wal_bytes bigint,
  lag_bytes bigint,
  clients integer not null,
  requests_per_minute double precision not null,
  bytes_per_minute double precision not null,
  snapshots integer not null,
  snapshot_ms_max integer,
  primary key (source_id, resolution, at)
);

-- The same for the busiest shapes of each point (by bytes served, at most 10 a point), so the
-- source page charts clients and bytes per shape. `label` is the shape's table and where clause
-- as the dashboard shows it: the shape may be gone when its points are read.
create table source_shape_metrics (
  source_id uuid not null references sources (id) on delete cascade,
  resolution text not null check (resolution in ('minute', 'hour')),
  at timestamptz not null,
  handle text not null,
  label text not null,
  samples integer not null default 1,
  clients integer not null,
  requests_per_minute double precision not null,
  bytes_per_minute double precision not null,
  primary key (source_id, resolution, at, handle)
);

-- Every rotation of a shape that had served its snapshot: why, how many clients were reading it
-- then, and the bytes its successor served to clients catching up in the minutes after. The
-- newest 1,000 of a source are kept.
create table source_invalidations (
  id uuid primary key default gen_random_uuid(),
  source_id uuid not null references sources (id) on delete cascade,
  at timestamptz not null,
  handle text not null,
  table_schema text not null,
  table_name text not null,
  where_clause text,
  cause text not null check (cause in ('clear_cache', 'schema_change', 'slot_lost',
                                       'deleted', 'evicted', 'dependency')),
  detail text,
  clients integer not null,
  bytes_reread bigint not null default 0
);
create index source_invalidations_by_source on source_invalidations (source_id, at desc);
