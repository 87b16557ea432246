-- The source columns added for the engine's runtime (server migration 0003), as synced.
alter table sources
  add column state_reason text,
  add column wal_retained_bytes bigint,
  add column wal_lag_bytes bigint,
  add column wal_status text,
  add column health_checked_at timestamptz;
