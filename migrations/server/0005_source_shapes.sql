-- The shapes the engine holds for each source, as the server running it reports them (issue
-- 15, "Live shapes"): a row per shape while the engine holds it, removed when the shape is
-- rotated or deleted, replaced when the server restarts the source, gone with the source.
-- Counts and times are written at a bounded rate (src/server/sources/live-shapes/live-shapes.ts), so
-- a busy shape never writes here on every change. Only the shape's definition and counters
-- are kept: never a credential. The where clause and params are cut to a length the
-- dashboard shows (a clause may be 64 KiB and its params far more).
create table source_shapes (
  source_id uuid not null references sources (id) on delete cascade,
  handle text not null,
  table_schema text not null,
  table_name text not null,
  where_clause text,
  params jsonb not null default '[]'::jsonb,
  row_count bigint not null,
  log_bytes bigint not null,
  created_at timestamptz not null,
  last_read_at timestamptz,
  primary key (source_id, handle)
);
