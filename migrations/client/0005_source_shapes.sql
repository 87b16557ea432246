-- The live shapes of the sources a tab shows (server migration 0005_source_shapes.sql), as the
-- gateway's /v1/source-shapes sends them, followed with the sources' event logs.
create table source_shapes (
  source_id uuid not null,
  handle text not null,
  table_schema text not null,
  table_name text not null,
  where_clause text,
  params jsonb not null,
  row_count bigint not null,
  log_bytes bigint not null,
  created_at timestamptz not null,
  last_read_at timestamptz,
  synced_txids bigint[],
  primary key (source_id, handle)
);
