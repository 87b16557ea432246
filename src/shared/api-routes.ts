// The REST API's paths, named once for the app's calls and the server's mounting (and the
// dashboard's shapes, served by the gateway). A path with ids is a function that encodes them.
// A path that belongs to one shared module stays there, beside its bodies' schemas
// (CLAIMABLE_SOURCES_PATH, SETUP_FORM_PUBLIC_PATH, VALIDATE_DATABASE_URL_PATH,
// ONBOARDING_INTENT_PATH, LIVE_WATCH_PATH, INGEST_PATH). tests/integration/api-routes.test.ts
// checks that the server answers every path here.
// No schemas here: the store's worker loads these paths (lib/connectivity.ts, db/worker).
import { syncedTables, type SyncedTableName } from './synced-tables.ts'

const seg = encodeURIComponent

/** Where the server mounts each router (src/server/app.ts); the paths below start with these. */
export const API_MOUNTS = {
  auth: '/api/public/auth',
  supabase: '/api/public/supabase',
  neon: '/api/public/neon',
  sourceStatus: '/api/public/source-status',
  users: '/api/v1/users',
  teams: '/api/v1/teams',
  providerConnections: '/api/v1/provider-connections',
  sources: '/api/v1/sources',
  /** The apps' shape endpoint: a source's shapes, opened by its id and secret. */
  shape: '/v1/shape',
  /** The dashboard's shapes (shapePath below). */
  gateway: '/v1',
} as const

// Paths with one route each.
export const HEALTH_PATH = '/api/public/health'
export const READY_PATH = '/api/public/ready'
export const ANALYTICS_CONFIG_PATH = '/api/public/analytics'

// Signing in, and connecting a provider account (which shares the sign-in's prefix).
export const AUTH_USER_PATH = `${API_MOUNTS.auth}/user`
export const LOGOUT_PATH = `${API_MOUNTS.auth}/logout`
export const AUTH_PROVIDERS_PATH = `${API_MOUNTS.auth}/providers`
export const LOCAL_LOGIN_PATH = `${API_MOUNTS.auth}/local/login`
/** A provider's own routes under the sign-in's prefix: its login and callback. */
export const providerAuthPath = (provider: string) =>
  `${API_MOUNTS.auth}/${provider}`
/** Where the browser goes to sign in with (or connect) `provider`; the caller adds the query. */
export const loginPath = (provider: string) =>
  `${providerAuthPath(provider)}/login`

// A provider's lists, read live for the wizard.
export const SUPABASE_ORGANIZATIONS_PATH = `${API_MOUNTS.supabase}/organizations`
export const supabaseProjectsPath = (orgId: string) =>
  `${SUPABASE_ORGANIZATIONS_PATH}/${seg(orgId)}/projects`
export const NEON_PROJECTS_PATH = `${API_MOUNTS.neon}/projects`
export const neonBranchesPath = (projectId: string) =>
  `${NEON_PROJECTS_PATH}/${seg(projectId)}/branches`
export const neonDatabasesPath = (projectId: string, branchId: string) =>
  `${neonBranchesPath(projectId)}/${seg(branchId)}/databases`
export const neonRolesPath = (projectId: string, branchId: string) =>
  `${neonBranchesPath(projectId)}/${seg(branchId)}/roles`
/** The caller adds `?role=`. */
export const neonDatabaseValidatePath = (
  projectId: string,
  branchId: string,
  database: string,
) => `${neonDatabasesPath(projectId, branchId)}/${seg(database)}/validate`
export const neonLogicalReplicationPath = (projectId: string) =>
  `${NEON_PROJECTS_PATH}/${seg(projectId)}/logical-replication`
export const providerConnectionPath = (provider: string) =>
  `${API_MOUNTS.providerConnections}/${provider}`

// A team's resources.
export const teamPath = (teamId: string) => `${API_MOUNTS.teams}/${seg(teamId)}`
/** Below a team's path (the server's teams router mounts each below `/:teamId`). */
export const TEAM_RESOURCES = {
  setupForms: '/source-setup-forms',
  alertDestinations: '/alert-destinations',
  alertSettings: '/alert-settings',
  apiTokens: '/api-tokens',
} as const
export const setupFormsPath = (teamId: string) =>
  `${teamPath(teamId)}${TEAM_RESOURCES.setupForms}`
export const setupFormPath = (teamId: string, formId: string) =>
  `${setupFormsPath(teamId)}/${seg(formId)}`
export const alertDestinationsPath = (teamId: string) =>
  `${teamPath(teamId)}${TEAM_RESOURCES.alertDestinations}`
export const alertDestinationPath = (teamId: string, destinationId: string) =>
  `${alertDestinationsPath(teamId)}/${seg(destinationId)}`
export const testAlertPath = (teamId: string, destinationId: string) =>
  `${alertDestinationPath(teamId, destinationId)}/test`
export const alertSettingsPath = (teamId: string) =>
  `${teamPath(teamId)}${TEAM_RESOURCES.alertSettings}`

// A source's calls.
export const sourcePath = (sourceId: string) =>
  `${API_MOUNTS.sources}/${seg(sourceId)}`
export const sourceRestartPath = (sourceId: string) =>
  `${sourcePath(sourceId)}/restart`
export const sourceRotateSecretPath = (sourceId: string) =>
  `${sourcePath(sourceId)}/rotate-secret`
/** DELETE ends the previous secret's grace early. */
export const sourcePreviousSecretPath = (sourceId: string) =>
  `${sourcePath(sourceId)}/previous-secret`
export const sourceSchemaPath = (sourceId: string) =>
  `${sourcePath(sourceId)}/schema`
export const sourceCountPath = (sourceId: string) =>
  `${sourcePath(sourceId)}/count`
export const liveShapePath = (sourceId: string, handle: string) =>
  `${sourcePath(sourceId)}/shapes/${seg(handle)}`
/** The Shape Inspector's read; the caller adds `?offset=&limit=`. */
export const liveShapeMessagesPath = (sourceId: string, handle: string) =>
  `${liveShapePath(sourceId, handle)}/messages`
/** The Shape Inspector's timeline: the offsets a client can read the shape from. */
export const liveShapeTimelinePath = (sourceId: string, handle: string) =>
  `${liveShapePath(sourceId, handle)}/timeline`
export const sourceStatusPath = (sourceId: string) =>
  `${API_MOUNTS.sourceStatus}/${seg(sourceId)}`

/** Each synced table's shape, below the gateway's mount. */
export const SHAPE_PATHS = {
  users: '/user/me',
  user_teams: '/teams',
  team_members: '/team-users',
  sources: '/sources',
  source_setup_forms: '/source-setup-forms',
  alert_destinations: '/alert-destinations',
  alert_delivery_attempts: '/alert-delivery-attempts',
  source_event_logs: '/source-event-logs',
  source_shapes: '/source-shapes',
  source_metrics: '/source-metrics',
  source_shape_metrics: '/source-shape-metrics',
  source_invalidations: '/source-invalidations',
} as const satisfies Record<SyncedTableName, string>

/**
 * A synced table's shape as the app asks for it: the signed-in user's own (users, user_teams:
 * no `scopeId`), or one team's or source's, named by the table's scoping column.
 */
export function shapePath(table: SyncedTableName, scopeId?: string): string {
  const path = `${API_MOUNTS.gateway}${SHAPE_PATHS[table]}`
  return scopeId === undefined
    ? path
    : `${path}?${syncedTables[table].scope}=${seg(scopeId)}`
}
