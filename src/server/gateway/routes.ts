// The shape gateway, mounted at /v1: the dashboard's live syncs for a signed-in user, served by
// the engine attached to the control plane. The session picks the rows; the client only sends
// protocol parameters. (The public status shape is status/routes.ts.)
import { Hono, type Context } from 'hono'
import {
  parseLive,
  jsonResponse,
  type ShapeDefinition,
} from '../../engine/index.ts'
import { idSchema } from '../../shared/entities.ts'
import { requireUser } from '../auth/middleware.ts'
import { sessionIsLive } from '../auth/sessions.ts'
import { findMemberSource } from '../sources/sources.ts'
import { getTeam } from '../teams/teams.ts'
import { serveControlShape } from './control-shape.ts'
import { viewerOf } from '../auth/viewer.ts'
import type { AppEnv } from '../platform/http/context.ts'
import { dashboardShapes } from './definitions.ts'
import { SHAPE_PATHS } from '../../shared/api-routes.ts'

/** A signed-in user's shape: ends with the session and with their membership, never cached. */
async function serve(
  c: Context<AppEnv>,
  resolve: Resolve,
  query: URLSearchParams,
): Promise<Response> {
  const shape = await resolve(c, query)
  if (!shape) return notFound()
  const { sessionId } = c.var.user
  const open = c.var.sessionRequests.track(sessionId, c.req.raw.signal)
  try {
    const response = await serveControlShape(
      c,
      shape.definition,
      open.signal,
      true,
    )
    if (!parseLive(query.get('live'))) return response
    const refusal = await refusedAfterWait(c, shape)
    if (!refusal) return response
    await response.body?.cancel()
    return refusal
  } finally {
    open.release()
  }
}

/**
 * A live answer waited for a change, during which the session may have ended (logout here or
 * on another server, expiry) or the user left the shape's team: what it found is not theirs.
 * They get what their next request would: 401, or the 404 of a shape not theirs. Null: still
 * theirs.
 */
async function refusedAfterWait(
  c: Context<AppEnv>,
  shape: UserShape,
): Promise<Response | null> {
  const { db } = c.var.deps
  if (!(await sessionIsLive(db, c.var.user.sessionId)))
    return c.json({ message: 'Not signed in' }, 401)
  // The team it was resolved for, not the source it came through: a source deleted while its
  // log waited still answers the deletes that say so (app/db/worker/event-log-fetch.ts).
  if (shape.teamId && !(await getTeam(db, viewerOf(c), shape.teamId)))
    return notFound()
  return null
}

const notFound = () => jsonResponse(404, { message: 'Not found' })

async function memberTeam(c: Context<AppEnv>, teamId: string | null) {
  const id = idSchema.safeParse(teamId)
  if (!id.success) return null
  return getTeam(c.var.deps.db, viewerOf(c), id.data)
}

async function memberSource(c: Context<AppEnv>, sourceId: string | null) {
  const id = idSchema.safeParse(sourceId)
  if (!id.success) return null
  return findMemberSource(c.var.deps.db, viewerOf(c), id.data)
}

/** A shape a signed-in user may read, and the team whose members alone may (null: their own). */
type UserShape = { definition: ShapeDefinition; teamId: string | null }

/** The shape a signed-in user's request names, or null when it is not theirs (404). */
type Resolve = (
  c: Context<AppEnv>,
  query: URLSearchParams,
) => Promise<UserShape | null>

const ofUser =
  (shape: (userId: string) => ShapeDefinition): Resolve =>
  async (c) => ({ definition: shape(c.var.user.id), teamId: null })

const ofTeam =
  (shape: (teamId: string) => ShapeDefinition): Resolve =>
  async (c, query) => {
    const team = await memberTeam(c, query.get('team_id'))
    return team ? { definition: shape(team.id), teamId: team.id } : null
  }

const ofSource =
  (shape: (sourceId: string) => ShapeDefinition): Resolve =>
  async (c, query) => {
    const source = await memberSource(c, query.get('source_id'))
    return source
      ? { definition: shape(source.id), teamId: source.team_id }
      : null
  }

/** The dashboard's shapes by path under /v1: served below, and watched by watch.ts. */
export const userShapes: Record<string, Resolve> = {
  [SHAPE_PATHS.users]: ofUser(dashboardShapes.currentUser),
  [SHAPE_PATHS.user_teams]: ofUser(dashboardShapes.teams),
  [SHAPE_PATHS.team_members]: ofTeam(dashboardShapes.teamUsers),
  [SHAPE_PATHS.sources]: ofTeam(dashboardShapes.sources),
  [SHAPE_PATHS.source_setup_forms]: ofTeam(dashboardShapes.setupForms),
  [SHAPE_PATHS.alert_destinations]: ofTeam(dashboardShapes.alertDestinations),
  [SHAPE_PATHS.alert_delivery_attempts]: ofTeam(
    dashboardShapes.alertDeliveryAttempts,
  ),
  [SHAPE_PATHS.source_event_logs]: ofSource(dashboardShapes.eventLogs),
  [SHAPE_PATHS.source_shapes]: ofSource(dashboardShapes.liveShapes),
  [SHAPE_PATHS.source_metrics]: ofSource(dashboardShapes.metrics),
  [SHAPE_PATHS.source_shape_metrics]: ofSource(dashboardShapes.shapeMetrics),
  [SHAPE_PATHS.source_invalidations]: ofSource(dashboardShapes.invalidations),
}

export const gatewayRoutes = new Hono<AppEnv>()
for (const [path, resolve] of Object.entries(userShapes))
  gatewayRoutes.get(path, requireUser, (c) =>
    serve(c, resolve, new URL(c.req.url).searchParams),
  )
