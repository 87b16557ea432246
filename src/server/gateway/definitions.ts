// The dashboard's shapes: each a fixed table, where clause and column list over the control
// plane, filled in from the session and the route, never from the client.
import { controlShape as shape } from './control-shape.ts'

const SOURCE_COLUMNS = [
  'id',
  'team_id',
  'name',
  'state',
  'region',
  'connection_url',
  'source_secret',
  'deleted_at',
  'target_electric_url',
  'created_at',
  'updated_at',
  'state_reason',
  'wal_retained_bytes',
  'wal_lag_bytes',
  'wal_status',
  'health_checked_at',
]

export const dashboardShapes = {
  currentUser: (userId: string) =>
    shape('users', 'id = $1', userId, [
      'id',
      'name',
      'email',
      'team_id',
      'created_at',
    ]),
  teams: (userId: string) =>
    shape('user_teams', 'user_id = $1', userId, ['user_id', 'team_id', 'name']),
  teamUsers: (teamId: string) =>
    shape('team_members', 'team_id = $1', teamId, [
      'team_id',
      'user_id',
      'name',
      'email',
    ]),
  sources: (teamId: string) =>
    shape('sources', 'team_id = $1', teamId, SOURCE_COLUMNS),
  setupForms: (teamId: string) =>
    shape('source_setup_forms', 'team_id = $1', teamId, [
      'id',
      'team_id',
      'region',
      'created_by',
      'created_at',
      'expires_at',
      'used_at',
      'source_id',
      'deleted_at',
    ]),
  // Never encrypted_secret: a destination's secret is shown once, by its create's answer.
  alertDestinations: (teamId: string) =>
    shape('alert_destinations', 'team_id = $1', teamId, [
      'id',
      'team_id',
      'url',
      'created_by',
      'created_at',
      'deleted_at',
    ]),
  alertDeliveryAttempts: (teamId: string) =>
    shape('alert_delivery_attempts', 'team_id = $1', teamId, [
      'id',
      'team_id',
      'delivery_id',
      'destination_id',
      'event',
      'state',
      'attempt',
      'status_code',
      'error',
      'delivered',
      'attempted_at',
    ]),
  eventLogs: (sourceId: string) =>
    shape('source_event_logs', 'source_id = $1', sourceId, [
      'id',
      'source_id',
      'event_name',
      'event_details',
      'instance_id',
      'emitted_at',
    ]),
  liveShapes: (sourceId: string) =>
    shape('source_shapes', 'source_id = $1', sourceId, [
      'source_id',
      'handle',
      'table_schema',
      'table_name',
      'where_clause',
      'params',
      'row_count',
      'log_bytes',
      'created_at',
      'last_read_at',
    ]),
}
