// The shape gateway, mounted at /v1: the dashboard's live syncs for a signed-in user, served by
// the engine attached to the control plane. The session picks the rows; the client only sends
// protocol parameters. (The public status shape is status/routes.ts.)
import { Hono, type Context } from 'hono'
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
    const live = new URL(c.req.url).searchParams.get('live') === 'true'
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

async function memberTeam(c: Context<AppEnv>, teamId: string | undefined) {
  const id = idSchema.safeParse(teamId)
  if (!id.success) return null
  return getTeam(c.var.deps.db, c.var.user.id, id.data)
}

async function memberSource(c: Context<AppEnv>, sourceId: string | undefined) {
  const id = idSchema.safeParse(sourceId)
  if (!id.success) return null
  const source = await findMemberSource(c.var.deps.db, c.var.user.id, id.data)
  return source?.id ?? null
}

export const gatewayRoutes = new Hono<AppEnv>()
  .get('/user/me', requireUser, (c) =>
    serve(c, dashboardShapes.currentUser(c.var.user.id)),
  )
  .get('/teams', requireUser, (c) =>
    serve(c, dashboardShapes.teams(c.var.user.id)),
  )
  .get('/team-users', requireUser, async (c) => {
    const team = await memberTeam(c, c.req.query('team_id'))
    return team ? serve(c, dashboardShapes.teamUsers(team.id)) : notFound()
  })
  .get('/sources', requireUser, async (c) => {
    const team = await memberTeam(c, c.req.query('team_id'))
    return team ? serve(c, dashboardShapes.sources(team.id)) : notFound()
  })
  .get('/source-setup-forms', requireUser, async (c) => {
    const team = await memberTeam(c, c.req.query('team_id'))
    return team ? serve(c, dashboardShapes.setupForms(team.id)) : notFound()
  })
  .get('/alert-destinations', requireUser, async (c) => {
    const team = await memberTeam(c, c.req.query('team_id'))
    return team
      ? serve(c, dashboardShapes.alertDestinations(team.id))
      : notFound()
  })
  .get('/alert-delivery-attempts', requireUser, async (c) => {
    const team = await memberTeam(c, c.req.query('team_id'))
    return team
      ? serve(c, dashboardShapes.alertDeliveryAttempts(team.id))
      : notFound()
  })
  .get('/source-event-logs', requireUser, async (c) => {
    const source = await memberSource(c, c.req.query('source_id'))
    return source ? serve(c, dashboardShapes.eventLogs(source)) : notFound()
  })
  .get('/source-shapes', requireUser, async (c) => {
    const source = await memberSource(c, c.req.query('source_id'))
    return source ? serve(c, dashboardShapes.liveShapes(source)) : notFound()
  })
