-- What the engine needs to run a source and what it tells users about it.
--
-- database_key: lower-cased host, port and database name, so the same database registered twice
-- by one team in one region is found (the API answers 200 with the existing source).
-- state_reason: why a source is in `error` (or `reconnecting`), in words a user can act on.
-- Replication health, measured periodically by the engine serving the source: how much WAL the
-- slot keeps on the user's server, how far the confirmed position trails the server's WAL, and
-- Postgres's own wal_status for the slot (reserved, extended, unreserved, lost).
alter table sources
  add column database_key text,
  add column state_reason text,
  add column wal_retained_bytes bigint,
  add column wal_lag_bytes bigint,
  add column wal_status text,
  add column health_checked_at timestamptz;

create unique index sources_one_per_database on sources (team_id, region, database_key)
  where deleted_at is null and database_key is not null;
