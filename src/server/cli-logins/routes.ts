// `sluice auth login`'s routes. The terminal's (public: it holds no credential yet): POST / starts
// a login (201 with the code to show and the page to open), POST /:id/collect asks for the token
// with the login's poll secret (202 pending, 200 the token once, 404 unknown, expired or
// collected, 409 the team has its maximum of tokens). The dashboard's (a signed-in member, not a
// token): GET /:id shows the login, POST /:id/approve gives it one of the member's teams.
import { Hono, type Context } from 'hono'
import { API_TOKENS_MAX_PER_TEAM } from '../../shared/api-tokens.ts'
import {
  approveCliLoginRequestSchema,
  cliLoginPagePath,
  collectCliLoginRequestSchema,
  startCliLoginRequestSchema,
} from '../../shared/cli-logins.ts'
import { idSchema } from '../../shared/entities.ts'
import { apiTokensFullMessage } from '../api-tokens/routes.ts'
import { requireSessionUser } from '../auth/middleware.ts'
import { viewerOf } from '../auth/viewer.ts'
import type { AppEnv } from '../platform/http/context.ts'
import { readJson } from '../platform/http/json.ts'
import { getTeam } from '../teams/teams.ts'
import {
  approveLogin,
  collectLogin,
  readLogin,
  startLogin,
} from './cli-logins.ts'

type C = Context<AppEnv>

const gone = (c: C) =>
  c.json(
    {
      message:
        'This login is unknown, expired or already used. Run `sluice auth login` again.',
    },
    404,
  )

const loginId = (c: C) => {
  const id = idSchema.safeParse(c.req.param('id'))
  return id.success ? id.data : null
}

export const publicCliLoginRoutes = new Hono<AppEnv>()
  .post('/', async (c) => {
    const body = await readJson(c, startCliLoginRequestSchema)
    if (!body.success) return body.response
    const started = await startLogin(
      c.var.deps.db,
      body.data.machine ?? 'an unnamed machine',
    )
    return c.json(
      { ...started, approve_path: cliLoginPagePath(started.id) },
      201,
    )
  })
  .post('/:id/collect', async (c) => {
    const id = loginId(c)
    if (!id) return gone(c)
    const body = await readJson(c, collectCliLoginRequestSchema)
    if (!body.success) return body.response
    const collected = await collectLogin(
      c.var.deps.db,
      id,
      body.data.poll_secret,
      API_TOKENS_MAX_PER_TEAM,
    )
    if (collected.kind === 'pending') return c.json({ state: 'pending' }, 202)
    if (collected.kind === 'full')
      return c.json(
        { message: apiTokensFullMessage(API_TOKENS_MAX_PER_TEAM) },
        409,
      )
    if (collected.kind === 'gone') return gone(c)
    return c.json({ token: collected.token, team_id: collected.team_id })
  })

export const cliLoginRoutes = new Hono<AppEnv>()
  .use(requireSessionUser)
  .get('/:id', async (c) => {
    const id = loginId(c)
    const login = id && (await readLogin(c.var.deps.db, id))
    return login ? c.json(login) : gone(c)
  })
  .post('/:id/approve', async (c) => {
    const id = loginId(c)
    if (!id) return gone(c)
    const body = await readJson(c, approveCliLoginRequestSchema)
    if (!body.success) return body.response
    const { db } = c.var.deps
    if (!(await getTeam(db, viewerOf(c), body.data.team_id)))
      return c.json({ message: 'Team not found' }, 404)
    if (!(await approveLogin(db, id, c.var.user.id, body.data.team_id)))
      return gone(c)
    return c.json({ id, team_id: body.data.team_id })
  })
