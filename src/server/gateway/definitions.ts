// The dashboard's shapes: each a fixed table, where clause and column list over the control
// plane, filled in from the session and the route, never from the client. The tables, their
// columns and the column each is scoped by are declared in shared/synced-tables.ts.
import {
  columnNames,
  syncedTables,
  type SyncedTableName,
} from '../../shared/synced-tables.ts'
import { controlShape } from './control-shape.ts'

/** `table`'s declared columns, where its scoping column is `value`. */
const shape = (table: SyncedTableName, value: string) =>
  controlShape(
    table,
    `${syncedTables[table].scope} = $1`,
    value,
    columnNames(table),
  )

export const dashboardShapes = {
  currentUser: (userId: string) => shape('users', userId),
  teams: (userId: string) => shape('user_teams', userId),
  teamUsers: (teamId: string) => shape('team_members', teamId),
  sources: (teamId: string) => shape('sources', teamId),
  setupForms: (teamId: string) => shape('source_setup_forms', teamId),
  alertDestinations: (teamId: string) => shape('alert_destinations', teamId),
  alertDeliveryAttempts: (teamId: string) =>
    shape('alert_delivery_attempts', teamId),
  eventLogs: (sourceId: string) => shape('source_event_logs', sourceId),
  liveShapes: (sourceId: string) => shape('source_shapes', sourceId),
  metrics: (sourceId: string) => shape('source_metrics', sourceId),
  shapeMetrics: (sourceId: string) => shape('source_shape_metrics', sourceId),
  invalidations: (sourceId: string) => shape('source_invalidations', sourceId),
}
