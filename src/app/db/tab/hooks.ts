// Named live reads of the local store. Every list is scoped to the store's owner, so rows of a
// previous user still being cleared can never show. `undefined` means "not read yet".
import { usePGlite } from '@electric-sql/pglite-react'
import { useEffect, useMemo } from 'react'
import {
  awaitCreated,
  awaitSecretGraceEnded,
  awaitSetupFormDeleted,
  awaitShapeDeleted,
  awaitSoftDeleted,
  awaitSourceForgotten,
  awaitSourceLabels,
  awaitSourceRemoval,
  awaitSourceSecret,
  type TableWithId,
} from '../shared/await-txid.ts'
import { useStoreQuery } from './first-reads.ts'
import { holdOpenPage } from '../shared/open-pages.ts'
import type {
  LiveShape,
  Source,
  SourceEventLog,
  Team,
  TeamUser,
  User,
} from '../../../shared/entities.ts'
import type { AlertDestination } from '../../../shared/alerts.ts'
import type { SourceLabels } from '../../../shared/sources.ts'
import type { SetupForm } from '../../../shared/setup-forms.ts'
import type { StoredRow } from './stored-row.ts'
import type { LiveShapeWithFigures } from './figure-types.ts'

const OWNER = '(select user_id from local_owner)'
export const OWNER_TEAMS = `(select team_id from user_teams where user_id = ${OWNER})`

export const iso = (value: unknown): string =>
  value instanceof Date ? value.toISOString() : String(value)

/** Whose data the store holds: null once nobody's (signed out in some tab). */
export function useStoreOwner(): string | null | undefined {
  const result = useStoreQuery<{ user_id: string }>(
    'select user_id from local_owner',
    [],
  )
  return result && (result.rows[0]?.user_id ?? null)
}

export function useCurrentUser(): User | undefined {
  const result = useStoreQuery<StoredRow<'users'>>(
    `select id, name, email, team_id, created_at from users where id = ${OWNER}`,
    [],
  )
  const row = result?.rows[0]
  return row ? { ...row, created_at: iso(row.created_at) } : undefined
}

export function useTeams(): Team[] | undefined {
  return useStoreQuery<Team>(
    `select team_id as id, name from user_teams where user_id = ${OWNER} order by name, team_id`,
    [],
  )?.rows
}

export function useTeam(teamId: string): Team | null | undefined {
  const teams = useTeams()
  return teams && (teams.find((team) => team.id === teamId) ?? null)
}

type SourceRow = StoredRow<'sources'>

const toSource = (row: SourceRow): Source => ({
  ...row,
  deleted_at: row.deleted_at == null ? null : iso(row.deleted_at),
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
  health_checked_at:
    row.health_checked_at == null ? null : iso(row.health_checked_at),
  wal_retained_bytes:
    row.wal_retained_bytes == null ? null : Number(row.wal_retained_bytes),
  wal_lag_bytes: row.wal_lag_bytes == null ? null : Number(row.wal_lag_bytes),
  wal_forecast_seconds:
    row.wal_forecast_seconds == null ? null : Number(row.wal_forecast_seconds),
  previous_secret_valid_until:
    row.previous_secret_valid_until == null
      ? null
      : iso(row.previous_secret_valid_until),
})

export type TeamWithSources = { team: Team; sources: Source[] }

/**
 * The owner's teams, each with its sources (none: an empty list). One live query for the
 * /sources page, which a repeat visit waits on before anything else.
 */
export function useSourcesByTeam(): TeamWithSources[] | undefined {
  const rows = useStoreQuery<
    { team_key: string; team_name: string } & Nullable<SourceRow>
  >(
    `select t.team_id as team_key, t.name as team_name, s.*
       from user_teams t left join sources s on s.team_id = t.team_id
      where t.user_id = ${OWNER}
      order by t.name, t.team_id, s.created_at, s.id`,
    [],
  )?.rows
  if (!rows) return undefined
  const teams: TeamWithSources[] = []
  for (const { team_key, team_name, ...source } of rows) {
    let entry = teams.at(-1)
    if (entry?.team.id !== team_key) {
      entry = { team: { id: team_key, name: team_name }, sources: [] }
      teams.push(entry)
    }
    if (source.id != null) entry.sources.push(toSource(source as SourceRow))
  }
  return teams
}

type Nullable<T> = { [K in keyof T]: T[K] | null }

export function useTeamSources(teamId: string): Source[] | undefined {
  return useStoreQuery<SourceRow>(
    `select * from sources where team_id::text = $1 and team_id in ${OWNER_TEAMS}
      order by created_at, id`,
    [teamId],
  )?.rows.map(toSource)
}

/** One of the owner's sources; null when there is no such source (or it is not theirs). */
export function useSource(sourceId: string): Source | null | undefined {
  const rows = useStoreQuery<SourceRow>(
    `select * from sources where id::text = $1 and team_id in ${OWNER_TEAMS}`,
    [sourceId],
  )?.rows
  if (!rows) return undefined
  const row = rows[0]
  return row ? toSource(row) : null
}

/** Waits on this tab's store for a write to show: a source created, a source gone. */
export function useSyncedWrites() {
  const pg = usePGlite()
  return useMemo(
    () => ({
      awaitCreated: (table: TableWithId, id: string, txid: number) =>
        awaitCreated(pg, table, id, txid),
      awaitSetupFormDeleted: (formId: string, txid: number) =>
        awaitSetupFormDeleted(pg, formId, txid),
      awaitDestinationDeleted: (destinationId: string, txid: number) =>
        awaitSoftDeleted(pg, 'alert_destinations', destinationId, txid),
      awaitSourceRemoval: (sourceId: string, txid: number) =>
        awaitSourceRemoval(pg, sourceId, txid),
      awaitSourceForgotten: (sourceId: string, txid: number) =>
        awaitSourceForgotten(pg, sourceId, txid),
      awaitSourceLabels: (
        sourceId: string,
        labels: Partial<SourceLabels>,
        txid: number,
      ) => awaitSourceLabels(pg, sourceId, labels, txid),
      awaitSourceSecret: (sourceId: string, secret: string, txid: number) =>
        awaitSourceSecret(pg, sourceId, secret, txid),
      awaitSecretGraceEnded: (sourceId: string, txid: number) =>
        awaitSecretGraceEnded(pg, sourceId, txid),
      awaitShapeDeleted: (sourceId: string, handle: string, txid: number) =>
        awaitShapeDeleted(pg, sourceId, handle, txid),
    }),
    [pg],
  )
}

/** Members of a team the owner belongs to; null when it is not one of theirs. */
export function useTeamUsers(teamId: string): TeamUser[] | null | undefined {
  const team = useTeam(teamId)
  const members = useStoreQuery<TeamUser>(
    `select user_id as id, name, email from team_members
      where team_id::text = $1 and team_id in ${OWNER_TEAMS}
      order by name, email`,
    [teamId],
  )?.rows
  if (team === null) return null
  return team && members
}

/** A team's setup links, newest first, used and deleted ones too; showing them follows them. */
export function useTeamSetupForms(teamId: string): SetupForm[] | undefined {
  useFollowed('team', teamId)
  const optional = (value: unknown) => (value == null ? null : iso(value))
  return useStoreQuery<StoredRow<'source_setup_forms'>>(
    `select id, team_id, region, created_by, created_at, expires_at, used_at, source_id,
            deleted_at
       from source_setup_forms
      where team_id::text = $1 and team_id in ${OWNER_TEAMS}
      order by created_at desc, id`,
    [teamId],
  )?.rows.map((row) => ({
    ...row,
    created_at: iso(row.created_at),
    expires_at: iso(row.expires_at),
    used_at: optional(row.used_at),
    deleted_at: optional(row.deleted_at),
  }))
}

/** A team's live alert destinations, oldest first; showing them follows the team. */
export function useTeamAlertDestinations(
  teamId: string,
): AlertDestination[] | undefined {
  useFollowed('team', teamId)
  return useStoreQuery<StoredRow<'alert_destinations'>>(
    `select id, team_id, url, created_by, created_at, deleted_at
       from alert_destinations
      where team_id::text = $1 and team_id in ${OWNER_TEAMS} and deleted_at is null
      order by created_at, id`,
    [teamId],
  )?.rows.map((row) => ({
    ...row,
    created_at: iso(row.created_at),
    deleted_at: null,
  }))
}

/** One attempt of the team's delivery log, with its destination's URL. */
export type AlertDeliveryAttempt = {
  id: string
  destination_url: string
  event: string
  state: string
  attempt: number
  status_code: number | null
  error: string | null
  delivered: boolean
  attempted_at: string
}

/** The team's last 50 delivery attempts, newest first; showing them follows the team. */
export function useTeamAlertDeliveries(
  teamId: string,
): AlertDeliveryAttempt[] | undefined {
  useFollowed('team', teamId)
  return useStoreQuery<AlertDeliveryAttempt & { attempted_at: unknown }>(
    `select a.id, coalesce(d.url, '') as destination_url, a.event, a.state, a.attempt,
            a.status_code, a.error, a.delivered, a.attempted_at
       from alert_delivery_attempts a
       left join alert_destinations d on d.id = a.destination_id
      where a.team_id::text = $1 and a.team_id in ${OWNER_TEAMS}
      order by a.attempted_at desc, a.attempt desc limit 50`,
    [teamId],
  )?.rows.map((row) => ({ ...row, attempted_at: iso(row.attempted_at) }))
}

// What a shown page makes the sync follow, and how many of each it keeps following after their
// page was left.
const FOLLOWED = {
  source: { table: 'followed_sources', key: 'source_id', kept: 20 },
  team: { table: 'followed_teams', key: 'team_id', kept: 20 },
} as const

/**
 * Showing a source's event logs or live shapes, or a team's setup links, makes the sync (in
 * the store's worker) follow them; the most recently shown stay followed, so they are there
 * offline too. Only those shown now are kept live (open-pages.ts).
 */
export function useFollowed(kind: keyof typeof FOLLOWED, id: string): void {
  const pg = usePGlite()
  useEffect(() => holdOpenPage(kind, id), [kind, id])
  useEffect(() => {
    const { table, key, kept } = FOLLOWED[kind]
    void pg
      .transaction(async (tx) => {
        await tx.query(
          `insert into ${table} (${key}) values ($1)
           on conflict (${key}) do update set followed_at = now()`,
          [id],
        )
        await tx.query(
          `delete from ${table} where ${key} not in (
             select ${key} from ${table} order by followed_at desc limit $1)`,
          [kept],
        )
      })
      .catch((error: unknown) => console.warn(`follow ${kind}`, error))
  }, [pg, kind, id])
}

/** A source's event logs, newest first; showing them follows the source. */
export function useSourceEventLogs(
  sourceId: string,
): SourceEventLog[] | undefined {
  useFollowed('source', sourceId)
  return useStoreQuery<StoredRow<'source_event_logs'>>(
    `select l.id, l.source_id, l.event_name, l.event_details, l.instance_id, l.emitted_at
       from source_event_logs l
       join sources s on s.id = l.source_id and s.team_id in ${OWNER_TEAMS}
      where l.source_id::text = $1
      order by l.emitted_at desc, l.id`,
    [sourceId],
  )?.rows.map((row) => ({
    ...row,
    event_details: row.event_details as SourceEventLog['event_details'],
    emitted_at: iso(row.emitted_at),
  }))
}

/**
 * The shapes the engine holds for a source with their figures, newest first; showing them
 * follows the source.
 */
export function useSourceLiveShapes(
  sourceId: string,
): LiveShapeWithFigures[] | undefined {
  useFollowed('source', sourceId)
  return useStoreQuery<StoredRow<'source_shapes'>>(
    `select h.source_id, h.handle, h.table_schema, h.table_name, h.where_clause, h.params,
            h.row_count, h.log_bytes, h.created_at, h.last_read_at, h.clients,
            h.requests_per_minute, h.bytes_per_minute, h.changes_per_minute,
            h.stalled_requests, h.log_entries, h.snapshot_ms, h.last_rotation_at,
            h.last_rotation_cause
       from source_shapes h
       join sources s on s.id = h.source_id and s.team_id in ${OWNER_TEAMS}
      where h.source_id::text = $1
      order by h.created_at desc, h.handle`,
    [sourceId],
  )?.rows.map((row) => ({
    ...row,
    params: row.params as LiveShape['params'],
    row_count: Number(row.row_count),
    log_bytes: Number(row.log_bytes),
    created_at: iso(row.created_at),
    last_read_at: row.last_read_at == null ? null : iso(row.last_read_at),
    requests_per_minute: Number(row.requests_per_minute),
    bytes_per_minute: Number(row.bytes_per_minute),
    changes_per_minute: Number(row.changes_per_minute),
    log_entries: Number(row.log_entries),
    last_rotation_at:
      row.last_rotation_at == null ? null : iso(row.last_rotation_at),
  }))
}
