// /api/admin: the admin tool over HTTP (README "Admin tool"), on only when SLUICE_ADMIN_TOKEN is
// set. Unset, every path answers 404 as if it did not exist; set, a request without the token
// (Authorization: Bearer) answers 401. Each route is a thin adapter over operations.ts.
import { createHash, timingSafeEqual } from 'node:crypto'
import { Hono, type Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import { ownOrigin, type AppEnv } from '../platform/http/context.ts'
import { claimableSourceAdminRoutes } from '../claimable-sources/admin.ts'
import { AdminError, admin, parseAdminInput } from './operations.ts'
import { adminBody } from './request-body.ts'
import {
  parseSetupFormInput,
  setupFormOperations as setupForms,
} from '../setup-links/admin.ts'

export const ADMIN_API_PATH = '/api/admin'

export const isAdminPath = (path: string) =>
  path === ADMIN_API_PATH || path.startsWith(`${ADMIN_API_PATH}/`)

// Hashing first makes both sides one length, so the comparison takes the same time whatever
// the guess, its length included.
const digest = (value: string) => createHash('sha256').update(value).digest()

export function tokenMatches(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected))
}

const requireAdminToken = createMiddleware<AppEnv>(async (c, next) => {
  const expected = c.var.deps.env.SLUICE_ADMIN_TOKEN
  if (!expected) return c.json({ message: 'Not found' }, 404)
  const header = c.req.header('authorization') ?? ''
  const given = /^Bearer (.+)$/i.exec(header)?.[1] ?? ''
  if (!tokenMatches(given, expected)) {
    c.header('www-authenticate', 'Bearer')
    return c.json({ message: 'A valid admin token is required' }, 401)
  }
  await next()
})

/** Where the links an answer holds point: our own origin, as the members' API says it. */
const origin = (c: Context<AppEnv>) => ownOrigin(c.var.deps.env, c.req.url)

const STATUS = { invalid: 400, not_found: 404, conflict: 409 } as const

export const adminRoutes = new Hono<AppEnv>()
  .use(requireAdminToken)
  .onError((error, c) => {
    if (error instanceof AdminError)
      return c.json({ message: error.message }, STATUS[error.kind])
    throw error
  })
  .post('/teams', async (c) => {
    const input = parseAdminInput('teamsCreate', await adminBody(c))
    return c.json(await admin.teamsCreate(c.var.deps.db, input), 201)
  })
  .get('/teams', async (c) => c.json(await admin.teamsList(c.var.deps.db)))
  .post('/teams/:teamId/users', async (c) => {
    const raw = (await adminBody(c)) as { user_id?: unknown } | null
    const input = parseAdminInput('membership', {
      team: c.req.param('teamId'),
      user: raw?.user_id,
    })
    const result = await admin.teamsAddUser(c.var.deps.db, input)
    return c.json(result, result.added ? 201 : 200)
  })
  .delete('/teams/:teamId/users/:userId', async (c) => {
    const input = parseAdminInput('membership', {
      team: c.req.param('teamId'),
      user: c.req.param('userId'),
    })
    return c.json(await admin.teamsRemoveUser(c.var.deps.db, input))
  })
  .post('/users', async (c) => {
    const raw = (await adminBody(c)) as Record<string, unknown> | null
    const input = parseAdminInput('usersCreate', {
      name: raw?.name,
      email: raw?.email,
      team: raw?.team_id ?? undefined,
    })
    return c.json(await admin.usersCreate(c.var.deps.db, input), 201)
  })
  .patch('/users/:userId', async (c) => {
    const raw = (await adminBody(c)) as Record<string, unknown> | null
    const input = parseAdminInput('usersUpdate', {
      id: c.req.param('userId'),
      name: raw?.name ?? undefined,
      email: raw?.email ?? undefined,
    })
    return c.json(await admin.usersUpdate(c.var.deps.db, input))
  })
  .post('/teams/:teamId/setup-forms', async (c) => {
    const raw = (await adminBody(c)) as Record<string, unknown> | null
    const input = parseSetupFormInput('setupFormsCreate', {
      team: c.req.param('teamId'),
      region: raw?.region ?? undefined,
      expiresIn: raw?.expires_in_days ?? undefined,
    })
    return c.json(
      await setupForms.setupFormsCreate(c.var.deps.db, input, origin(c)),
      201,
    )
  })
  .get('/teams/:teamId/setup-forms', async (c) => {
    const input = parseSetupFormInput('setupFormsList', {
      team: c.req.param('teamId'),
    })
    return c.json(
      await setupForms.setupFormsList(c.var.deps.db, input, origin(c)),
    )
  })
  .delete('/setup-forms/:formId', async (c) => {
    const input = parseSetupFormInput('setupFormsDelete', {
      id: c.req.param('formId'),
    })
    return c.json(
      await setupForms.setupFormsDelete(c.var.deps.db, input, origin(c)),
    )
  })
  .route('/claimable-sources', claimableSourceAdminRoutes)
  .get('/users', async (c) =>
    c.json(
      await admin.usersList(
        c.var.deps.db,
        parseAdminInput('usersList', { email: c.req.query('email') }),
      ),
    ),
  )
