// The alert monitor's reads and writes: where every team's sources stand, the open incidents,
// and opening or resolving one together with its deliveries (one transaction). The unique
// index on open incidents makes an open from two servers at once count once; a resolve is a
// conditional update, so it too is sent once.
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import {
  DEFAULT_ALERT_SETTINGS,
  type AlertKind,
  type AlertPayload,
  type AlertState,
} from '../../shared/alerts.ts'
import { transaction, type Db } from '../platform/db/database.ts'
import type { OpenIncident, SourceCondition } from './incident-plan.ts'

type ConditionRow = {
  source_id: string
  team_id: string
  deleted: boolean
  state: string
  state_reason: string | null
  wal_status: string | null
  wal_retained_bytes: string | null
  threshold: string
  minutes: number
  reconnecting_ms: string | null
  wal_forecast_seconds: string | null
  forecast_threshold: number
}

/** Every team's sources as the monitor judges them (team-less claimable ones have no one to tell). */
export async function readConditions(db: Db): Promise<SourceCondition[]> {
  const { rows } = await db.query<ConditionRow>(
    `select s.id as source_id, s.team_id, s.deleted_at is not null as deleted, s.state,
            s.state_reason, s.wal_status, s.wal_retained_bytes::text,
            coalesce(a.wal_retained_threshold_bytes, $1)::text as threshold,
            coalesce(a.reconnecting_minutes, $2) as minutes,
            s.wal_forecast_seconds::text,
            coalesce(a.wal_forecast_threshold_seconds, $3) as forecast_threshold,
            case when s.state = 'reconnecting' then
              (extract(epoch from now() - (
                 select max(e.emitted_at) from source_event_logs e
                  where e.source_id = s.id and e.event_name = 'source_reconnecting'
               )) * 1000)::bigint::text end as reconnecting_ms
       from sources s left join alert_settings a on a.team_id = s.team_id
      where s.team_id is not null`,
    [
      DEFAULT_ALERT_SETTINGS.wal_retained_threshold_bytes,
      DEFAULT_ALERT_SETTINGS.reconnecting_minutes,
      DEFAULT_ALERT_SETTINGS.wal_forecast_threshold_seconds,
    ],
  )
  const num = (text: string | null) => (text === null ? null : Number(text))
  return rows.map((row) => ({
    sourceId: row.source_id,
    teamId: row.team_id,
    deleted: row.deleted,
    state: row.state,
    reason: row.state_reason,
    walStatus: row.wal_status,
    retainedBytes: num(row.wal_retained_bytes),
    thresholdBytes: Number(row.threshold),
    reconnectingMinutes: row.minutes,
    reconnectingForMs: num(row.reconnecting_ms),
    forecastSeconds: num(row.wal_forecast_seconds),
    forecastThresholdSeconds: row.forecast_threshold,
  }))
}

export async function readOpenIncidents(db: Db): Promise<OpenIncident[]> {
  const { rows } = await db.query<{
    id: string
    team_id: string
    source_id: string
    kind: AlertKind
  }>(
    'select id, team_id, source_id, kind from alert_incidents where resolved_at is null',
  )
  return rows.map((row) => ({
    id: row.id,
    teamId: row.team_id,
    sourceId: row.source_id,
    kind: row.kind,
  }))
}

/**
 * Queues one alert for every live destination of the team (the same payload id for each, so
 * a receiver that gets it twice can tell). Answers how many were queued.
 */
export async function enqueueAlert(
  client: pg.PoolClient | Db,
  alert: Omit<AlertPayload, 'id' | 'occurred_at'> & {
    incidentId: string | null
    occurredAt: Date
    /** Only this destination (a test alert); every live one otherwise. */
    destinationId?: string
  },
): Promise<number> {
  const payload: AlertPayload = {
    id: randomUUID(),
    team_id: alert.team_id,
    source_id: alert.source_id,
    event: alert.event,
    state: alert.state,
    message: alert.message,
    occurred_at: alert.occurredAt.toISOString(),
  }
  const { rowCount } = await client.query(
    `insert into alert_deliveries (team_id, destination_id, incident_id, event, state, payload)
     select team_id, id, $2, $3, $4, $5 from alert_destinations
      where team_id = $1 and deleted_at is null and ($6::uuid is null or id = $6)`,
    [
      alert.team_id,
      alert.incidentId,
      alert.event,
      alert.state,
      JSON.stringify(payload),
      alert.destinationId ?? null,
    ],
  )
  return rowCount ?? 0
}

/** Opens an incident and queues its alert; false when one was already open. */
export async function openIncident(
  db: Db,
  incident: {
    teamId: string
    sourceId: string
    kind: AlertKind
    message: string
  },
): Promise<boolean> {
  return transaction(db, async (client) => {
    const { rows } = await client.query<{ id: string; opened_at: Date }>(
      `insert into alert_incidents (team_id, source_id, kind, message)
       values ($1, $2, $3, $4)
       on conflict (team_id, source_id, kind) where resolved_at is null do nothing
       returning id, opened_at`,
      [incident.teamId, incident.sourceId, incident.kind, incident.message],
    )
    const row = rows[0]
    if (!row) return false
    await enqueueAlert(client, {
      team_id: incident.teamId,
      source_id: incident.sourceId,
      event: incident.kind,
      state: 'firing',
      message: incident.message,
      incidentId: row.id,
      occurredAt: row.opened_at,
    })
    return true
  })
}

/** Resolves an incident, with its recovery alert unless `message` is null (a silent close). */
export async function resolveIncident(
  db: Db,
  incident: OpenIncident,
  message: string | null,
): Promise<boolean> {
  return transaction(db, async (client) => {
    const { rows } = await client.query<{ resolved_at: Date }>(
      `update alert_incidents set resolved_at = now()
        where id = $1 and resolved_at is null returning resolved_at`,
      [incident.id],
    )
    const row = rows[0]
    if (!row) return false
    if (message !== null) {
      const state: AlertState = 'resolved'
      await enqueueAlert(client, {
        team_id: incident.teamId,
        source_id: incident.sourceId,
        event: incident.kind,
        state,
        message,
        incidentId: incident.id,
        occurredAt: row.resolved_at,
      })
    }
    return true
  })
}
