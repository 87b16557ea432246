-- The source's WAL forecast (server migration 0021_wal_forecast.sql), as synced: the source page
-- shows the time left before the slot would be invalidated beside retained WAL.
alter table sources add column wal_forecast_seconds bigint;
