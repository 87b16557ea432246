// A team's alert thresholds (alert_settings); a team without a row has the defaults.
import {
  DEFAULT_ALERT_SETTINGS,
  type AlertSettings,
} from '../../shared/alerts.ts'
import type { Db } from '../platform/db/database.ts'

export async function readAlertSettings(
  db: Db,
  teamId: string,
): Promise<AlertSettings> {
  const { rows } = await db.query<{ bytes: string; minutes: number }>(
    `select wal_retained_threshold_bytes::text as bytes, reconnecting_minutes as minutes
       from alert_settings where team_id = $1`,
    [teamId],
  )
  const row = rows[0]
  if (!row) return DEFAULT_ALERT_SETTINGS
  return {
    wal_retained_threshold_bytes: Number(row.bytes),
    reconnecting_minutes: row.minutes,
  }
}

export async function writeAlertSettings(
  db: Db,
  teamId: string,
  settings: AlertSettings,
): Promise<void> {
  await db.query(
    `insert into alert_settings (team_id, wal_retained_threshold_bytes, reconnecting_minutes)
     values ($1, $2, $3)
     on conflict (team_id) do update
       set wal_retained_threshold_bytes = excluded.wal_retained_threshold_bytes,
           reconnecting_minutes = excluded.reconnecting_minutes`,
    [
      teamId,
      settings.wal_retained_threshold_bytes,
      settings.reconnecting_minutes,
    ],
  )
}
