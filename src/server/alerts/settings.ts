// A team's alert thresholds (alert_settings); a team without a row has the defaults.
import {
  DEFAULT_ALERT_SETTINGS,
  type AlertSettings,
  type SaveAlertSettings,
} from '../../shared/alerts.ts'
import type { Db } from '../platform/db/database.ts'

export async function readAlertSettings(
  db: Db,
  teamId: string,
): Promise<AlertSettings> {
  const { rows } = await db.query<{
    bytes: string
    minutes: number
    forecast: number
  }>(
    `select wal_retained_threshold_bytes::text as bytes, reconnecting_minutes as minutes,
            wal_forecast_threshold_seconds as forecast
       from alert_settings where team_id = $1`,
    [teamId],
  )
  const row = rows[0]
  if (!row) return DEFAULT_ALERT_SETTINGS
  return {
    wal_retained_threshold_bytes: Number(row.bytes),
    reconnecting_minutes: row.minutes,
    wal_forecast_threshold_seconds: row.forecast,
  }
}

/** Writes the thresholds; a forecast threshold left out stays as stored (the default if none). */
export async function writeAlertSettings(
  db: Db,
  teamId: string,
  settings: SaveAlertSettings,
): Promise<void> {
  await db.query(
    `insert into alert_settings
       (team_id, wal_retained_threshold_bytes, reconnecting_minutes, wal_forecast_threshold_seconds)
     values ($1, $2, $3, coalesce($4::integer, $5::integer))
     on conflict (team_id) do update
       set wal_retained_threshold_bytes = excluded.wal_retained_threshold_bytes,
           reconnecting_minutes = excluded.reconnecting_minutes,
           wal_forecast_threshold_seconds =
             coalesce($4::integer, alert_settings.wal_forecast_threshold_seconds)`,
    [
      teamId,
      settings.wal_retained_threshold_bytes,
      settings.reconnecting_minutes,
      settings.wal_forecast_threshold_seconds ?? null,
      DEFAULT_ALERT_SETTINGS.wal_forecast_threshold_seconds,
    ],
  )
}
