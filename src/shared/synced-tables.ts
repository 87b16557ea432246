// The tables the dashboard syncs from the control plane into the browser's store, declared once:
// each one's columns as the gateway sends them and the store keeps them, its primary key, and
// the column that scopes a shape of it to one user, team or source (`column = $1`, the value
// from the session or the route, never from the client). The gateway's column lists, the sync's
// keys and the store's row types are read from here; the migrations stay SQL, and tests check
// both sides' tables against this (tests/unit/synced-tables-client.test.ts,
// tests/integration/synced-tables-server.test.ts).

/** A column's Postgres type, spelled as the migrations spell it. */
type ColumnType =
  | 'uuid'
  | 'text'
  | 'timestamptz'
  | 'bigint'
  | 'integer'
  | 'double precision'
  | 'boolean'
  | 'jsonb'

export type Column = { type: ColumnType; nullable: boolean }

const required = <T extends ColumnType>(type: T) =>
  ({ type, nullable: false }) as const
const nullable = <T extends ColumnType>(type: T) =>
  ({ type, nullable: true }) as const

type SyncedTableDeclaration = {
  columns: Record<string, Column>
  primaryKey: readonly string[]
  scope: string
}

export const syncedTables = {
  users: {
    columns: {
      id: required('uuid'),
      name: required('text'),
      email: required('text'),
      team_id: nullable('uuid'),
      created_at: required('timestamptz'),
    },
    primaryKey: ['id'],
    scope: 'id',
  },
  user_teams: {
    columns: {
      user_id: required('uuid'),
      team_id: required('uuid'),
      name: required('text'),
    },
    primaryKey: ['user_id', 'team_id'],
    scope: 'user_id',
  },
  team_members: {
    columns: {
      team_id: required('uuid'),
      user_id: required('uuid'),
      name: required('text'),
      email: required('text'),
    },
    primaryKey: ['team_id', 'user_id'],
    scope: 'team_id',
  },
  sources: {
    // Never encrypted_password or database_key: the server's alone.
    columns: {
      id: required('uuid'),
      // Null on the server for an unclaimed source, which no team's shape holds.
      team_id: required('uuid'),
      name: nullable('text'),
      project: nullable('text'),
      environment: nullable('text'),
      state: required('text'),
      region: required('text'),
      connection_url: required('text'),
      source_secret: required('text'),
      deleted_at: nullable('timestamptz'),
      target_electric_url: nullable('text'),
      created_at: required('timestamptz'),
      updated_at: required('timestamptz'),
      state_reason: nullable('text'),
      wal_retained_bytes: nullable('bigint'),
      wal_lag_bytes: nullable('bigint'),
      wal_status: nullable('text'),
      health_checked_at: nullable('timestamptz'),
      // Seconds until the slot would be invalidated at the current rate; null when it is not
      // falling behind or the database sets no limit (sources/runtime/wal-forecast.ts).
      wal_forecast_seconds: nullable('bigint'),
      // After a rotation, until its grace ends (sources/secrets.ts).
      previous_source_secret: nullable('text'),
      previous_secret_valid_until: nullable('timestamptz'),
    },
    primaryKey: ['id'],
    scope: 'team_id',
  },
  source_event_logs: {
    columns: {
      id: required('uuid'),
      source_id: required('uuid'),
      event_name: required('text'),
      event_details: required('jsonb'),
      instance_id: required('text'),
      emitted_at: required('timestamptz'),
    },
    primaryKey: ['id'],
    scope: 'source_id',
  },
  source_shapes: {
    columns: {
      source_id: required('uuid'),
      handle: required('text'),
      table_schema: required('text'),
      table_name: required('text'),
      where_clause: nullable('text'),
      params: required('jsonb'),
      row_count: required('bigint'),
      log_bytes: required('bigint'),
      created_at: required('timestamptz'),
      last_read_at: nullable('timestamptz'),
      clients: required('integer'),
      requests: required('bigint'),
      bytes_sent: required('bigint'),
      changes_written: required('bigint'),
      requests_per_minute: required('double precision'),
      bytes_per_minute: required('double precision'),
      changes_per_minute: required('double precision'),
      stalled_requests: required('integer'),
      log_entries: required('bigint'),
      snapshot_ms: nullable('integer'),
      last_rotation_at: nullable('timestamptz'),
      last_rotation_cause: nullable('text'),
    },
    primaryKey: ['source_id', 'handle'],
    scope: 'source_id',
  },
  // A source's figures over time (server migration 0020_shape_metrics.sql).
  source_metrics: {
    columns: {
      source_id: required('uuid'),
      resolution: required('text'),
      at: required('timestamptz'),
      samples: required('integer'),
      changes_per_second: required('double precision'),
      writes_per_minute: required('double precision'),
      retained_wal_bytes: nullable('bigint'),
      lag_bytes: nullable('bigint'),
      clients: required('integer'),
      requests_per_minute: required('double precision'),
      bytes_per_minute: required('double precision'),
      snapshots: required('integer'),
      snapshot_ms_max: nullable('integer'),
    },
    primaryKey: ['source_id', 'resolution', 'at'],
    scope: 'source_id',
  },
  source_shape_metrics: {
    columns: {
      source_id: required('uuid'),
      resolution: required('text'),
      at: required('timestamptz'),
      handle: required('text'),
      label: required('text'),
      samples: required('integer'),
      clients: required('integer'),
      requests_per_minute: required('double precision'),
      bytes_per_minute: required('double precision'),
    },
    primaryKey: ['source_id', 'resolution', 'at', 'handle'],
    scope: 'source_id',
  },
  source_invalidations: {
    columns: {
      id: required('uuid'),
      source_id: required('uuid'),
      at: required('timestamptz'),
      handle: required('text'),
      table_schema: required('text'),
      table_name: required('text'),
      where_clause: nullable('text'),
      cause: required('text'),
      detail: nullable('text'),
      clients: required('integer'),
      bytes_reread: required('bigint'),
    },
    primaryKey: ['id'],
    scope: 'source_id',
  },
  source_setup_forms: {
    columns: {
      id: required('uuid'),
      team_id: required('uuid'),
      region: nullable('text'),
      created_by: nullable('uuid'),
      created_at: required('timestamptz'),
      expires_at: required('timestamptz'),
      used_at: nullable('timestamptz'),
      source_id: nullable('uuid'),
      deleted_at: nullable('timestamptz'),
    },
    primaryKey: ['id'],
    scope: 'team_id',
  },
  alert_destinations: {
    // Never encrypted_secret: a destination's secret is shown once, by its create's answer.
    columns: {
      id: required('uuid'),
      team_id: required('uuid'),
      url: required('text'),
      created_by: nullable('uuid'),
      created_at: required('timestamptz'),
      deleted_at: nullable('timestamptz'),
    },
    primaryKey: ['id'],
    scope: 'team_id',
  },
  alert_delivery_attempts: {
    columns: {
      id: required('uuid'),
      team_id: required('uuid'),
      delivery_id: required('uuid'),
      destination_id: required('uuid'),
      event: required('text'),
      state: required('text'),
      attempt: required('integer'),
      status_code: nullable('integer'),
      error: nullable('text'),
      delivered: required('boolean'),
      attempted_at: required('timestamptz'),
    },
    primaryKey: ['id'],
    scope: 'team_id',
  },
} as const satisfies Record<string, SyncedTableDeclaration>

export type SyncedTables = typeof syncedTables
export type SyncedTableName = keyof SyncedTables

export const syncedTableNames = Object.keys(syncedTables) as SyncedTableName[]

/** A table's column names, in declared order: the gateway's column list. */
export const columnNames = (table: SyncedTableName): string[] =>
  Object.keys(syncedTables[table].columns)
