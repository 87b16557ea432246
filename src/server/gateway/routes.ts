// The shape gateway: the dashboard's live syncs, served by the engine attached to the control
// plane. The session picks the rows; the client only sends protocol parameters.
import { Hono, type Context } from 'hono'
import { parseProtocol, type Errors } from '../../engine/http/request.ts'
import {
  invalid,
  jsonResponse,
  serveShape,
} from '../../engine/http/serve-shape.ts'
import type { ShapeDefinition } from '../../engine/shapes/definition.ts'
import { idSchema } from '../../shared/entities.ts'
import { requireUser } from '../auth/middleware.ts'
import { sessionIsLive } from '../auth/sessions.ts'
import { findMemberSource } from '../control/sources.ts'
import { getTeam } from '../control/teams.ts'
import type { AppEnv } from '../http/context.ts'
import { dashboardShapes } from './definitions.ts'

// The definition is the server's: a client trying to set it is told so, not silently served.
const FIXED = ['table', 'where', 'columns', 'params', 'replica']

/** A signed-in user's shape: ends with the session, never cached. */
async function serve(
  c: Context<AppEnv>,
  definition: ShapeDefinition,
): Promise<Response> {
  const { sessionId } = c.var.user
  const open = c.var.sessionRequests.track(sessionId, c.req.raw.signal)
  try {
    const response = await serveParsed(c, definition, open.signal, true)
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

async function serveParsed(
  c: Context<AppEnv>,
  definition: ShapeDefinition,
  signal: AbortSignal,
  perUser: boolean,
): Promise<Response> {
  const shapes = c.var.deps.shapes
  if (!shapes)
    return jsonResponse(
      503,
      { message: 'Sync is not running' },
      { 'retry-after': '5' },
    )
  const query = new URL(c.req.url).searchParams
  const errors: Errors = {}
  for (const name of FIXED)
    if ([...query.keys()].some((k) => k === name || k.startsWith(`${name}[`)))
      errors[name] = ['is set by the server for this shape']
  const request = parseProtocol(query, errors)
  if (Object.keys(errors).length > 0) return invalid(errors)
  return serveShape({
    database: shapes,
    definition,
    request,
    signal,
    perUser,
  })
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
  .get('/v1/user/me', requireUser, (c) =>
    serve(c, dashboardShapes.currentUser(c.var.user.id)),
  )
  .get('/v1/teams', requireUser, (c) =>
    serve(c, dashboardShapes.teams(c.var.user.id)),
  )
  .get('/v1/team-users', requireUser, async (c) => {
    const team = await memberTeam(c, c.req.query('team_id'))
    return team ? serve(c, dashboardShapes.teamUsers(team.id)) : notFound()
  })
  .get('/v1/sources', requireUser, async (c) => {
    const team = await memberTeam(c, c.req.query('team_id'))
    return team ? serve(c, dashboardShapes.sources(team.id)) : notFound()
  })
  .get('/v1/source-event-logs', requireUser, async (c) => {
    const source = await memberSource(c, c.req.query('source_id'))
    return source ? serve(c, dashboardShapes.eventLogs(source)) : notFound()
  })
  .get('/api/public/source-status/:sourceId', async (c) => {
    const id = idSchema.safeParse(c.req.param('sourceId'))
    if (!id.success) return notFound()
    return serveParsed(
      c,
      dashboardShapes.sourceStatus(id.data),
      c.req.raw.signal,
      false,
    )
  })
