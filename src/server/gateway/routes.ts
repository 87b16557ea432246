// The shape gateway, mounted at /v1: the dashboard's live syncs for a signed-in user, served by
// the engine attached to the control plane. The session picks the rows; the client only sends
// protocol parameters. (The public status shape is status/routes.ts.)
import { Hono, type Context } from 'hono'
import { parseLive } from '../../engine/http/request.ts'
import { jsonResponse } from '../../engine/http/serve-shape.ts'
import type { ShapeDefinition } from '../../engine/shapes/definition.ts'
import { idSchema } from '../../shared/entities.ts'
import { requireUser } from '../auth/middleware.ts'
import { sessionIsLive } from '../auth/sessions.ts'
import { findMemberSource } from '../control/sources.ts'
import { getTeam } from '../control/teams.ts'
import { serveControlShape } from '../http/control-shape.ts'
import type { AppEnv } from '../http/context.ts'
import { dashboardShapes } from './definitions.ts'

/** A signed-in user's shape: ends with the session, never cached. */
async function serve(
  c: Context<AppEnv>,
  definition: ShapeDefinition,
): Promise<Response> {
  const { sessionId } = c.var.user
  const open = c.var.sessionRequests.track(sessionId, c.req.raw.signal)
  try {
    const response = await serveControlShape(c, definition, open.signal, true)
    // A live answer waited for a change, during which the session may have ended (logout
    // here or on another server, expiry): what it found is not for a signed-out browser.
    const live = parseLive(new URL(c.req.url).searchParams.get('live'))
    if (live && !(await sessionIsLive(c.var.deps.db, sessionId))) {
      await response.body?.cancel()
      return c.json({ message: 'Not signed in' }, 401)
    }
    return response
  } finally {
    open.release()
  }
}

const notFound = () => jsonResponse(404, { message: 'Not found' })

async function memberTeam(c: Context<AppEnv>, teamId: string | null) {
  const id = idSchema.safeParse(teamId)
  if (!id.success) return null
  return getTeam(c.var.deps.db, c.var.user.id, id.data)
}

async function memberSource(c: Context<AppEnv>, sourceId: string | null) {
  const id = idSchema.safeParse(sourceId)
  if (!id.success) return null
  const source = await findMemberSource(c.var.deps.db, c.var.user.id, id.data)
  return source?.id ?? null
}

/** The definition a signed-in user's request names, or null when it is not theirs (404). */
type Resolve = (
  c: Context<AppEnv>,
  query: URLSearchParams,
) => Promise<ShapeDefinition | null>

const ofTeam =
  (shape: (teamId: string) => ShapeDefinition): Resolve =>
  async (c, query) => {
    const team = await memberTeam(c, query.get('team_id'))
    return team ? shape(team.id) : null
  }

const ofSource =
  (shape: (sourceId: string) => ShapeDefinition): Resolve =>
  async (c, query) => {
    const source = await memberSource(c, query.get('source_id'))
    return source ? shape(source) : null
  }

/** The dashboard's shapes by path under /v1: served below, and watched by watch.ts. */
export const userShapes: Record<string, Resolve> = {
  '/user/me': async (c) => dashboardShapes.currentUser(c.var.user.id),
  '/teams': async (c) => dashboardShapes.teams(c.var.user.id),
  '/team-users': ofTeam(dashboardShapes.teamUsers),
  '/sources': ofTeam(dashboardShapes.sources),
  '/source-setup-forms': ofTeam(dashboardShapes.setupForms),
  '/alert-destinations': ofTeam(dashboardShapes.alertDestinations),
  '/alert-delivery-attempts': ofTeam(dashboardShapes.alertDeliveryAttempts),
  '/source-event-logs': ofSource(dashboardShapes.eventLogs),
  '/source-shapes': ofSource(dashboardShapes.liveShapes),
}

export const gatewayRoutes = new Hono<AppEnv>()
for (const [path, resolve] of Object.entries(userShapes))
  gatewayRoutes.get(path, requireUser, async (c) => {
    const definition = await resolve(c, new URL(c.req.url).searchParams)
    return definition ? serve(c, definition) : notFound()
  })
