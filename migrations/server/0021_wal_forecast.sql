-- The WAL forecast (issue 41): how long until a source's slot would be invalidated by the
-- database's max_slot_wal_keep_size at the rate its retained WAL grew over the last minutes,
-- measured with the rest of its health (src/server/sources/runtime/wal-forecast.ts). Null when
-- the slot is not falling behind or the database sets no limit. Synced to the team's members.
alter table sources add column wal_forecast_seconds bigint
  constraint sources_wal_forecast_not_negative check (wal_forecast_seconds >= 0);

-- A team's threshold for the forecast's alert: it fires when the time left drops below it.
-- One hour by default; bounds as alertSettingsSchema's (src/shared/alerts.ts): 1 minute to 7 days.
alter table alert_settings add column wal_forecast_threshold_seconds integer not null default 3600
  constraint alert_settings_wal_forecast_bounds
    check (wal_forecast_threshold_seconds between 60 and 604800);

-- The forecast's incidents: a kind of their own, opened and resolved like the others.
alter table alert_incidents drop constraint alert_incidents_kind_check;
alter table alert_incidents add constraint alert_incidents_kind_check check (kind in (
  'source_error', 'delete_failed', 'replication_health_warning', 'source_reconnecting',
  'wal_forecast_warning'));
