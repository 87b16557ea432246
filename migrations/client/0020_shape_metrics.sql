-- The figures of the sources a tab shows (server migration 0020_shape_metrics.sql), synced with
-- their live shapes: per-shape counters, the source's and its busiest shapes' points over time,
-- and the invalidation log. The charts read these, so they work offline with the last figures.
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

create table source_metrics (
  source_id uuid not null,
  resolution text not null,
  at timestamptz not null,
  samples integer not null,
  changes_per_second double precision not null,
  writes_per_minute double precision not null,
  retained_wal_bytes bigint,
  lag_bytes bigint,
  clients integer not null,
  requests_per_minute double precision not null,
  bytes_per_minute double precision not null,
  snapshots integer not null,
  snapshot_ms_max integer,
  synced_txids bigint[],
  primary key (source_id, resolution, at)
);

create table source_shape_metrics (
  source_id uuid not null,
  resolution text not null,
  at timestamptz not null,
  handle text not null,
  label text not null,
  samples integer not null,
  clients integer not null,
  requests_per_minute double precision not null,
  bytes_per_minute double precision not null,
  synced_txids bigint[],
  primary key (source_id, resolution, at, handle)
);

create table source_invalidations (
  id uuid primary key,
  source_id uuid not null,
  at timestamptz not null,
  handle text not null,
  table_schema text not null,
  table_name text not null,
  where_clause text,
  cause text not null,
  detail text,
  clients integer not null,
  bytes_reread bigint not null,
  synced_txids bigint[]
);
