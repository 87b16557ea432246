// What a team API token reaches: its own team's sources and setup links (and the team itself),
// nothing else. Every route of the app is asked with a token: a route outside the token's scope
// answers 403 under /api/v1 and, anywhere else, exactly what a request with no credentials
// gets; another team's source or team answers 404 exactly as for a non-member. A token's
// request needs no Origin (it carries no cookie), and cookie requests still do.
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { tokenMayCall } from '../../src/server/api-tokens/scope.ts'
import {
  setupFormsPath,
  sourceRestartPath,
} from '../../src/shared/api-routes.ts'
import { Browser, type App } from '../support/app.ts'
import { asMember, newToken, withToken } from '../support/api-tokens.ts'
import { skip, useSourcesApi } from '../support/sources-api.ts'

const api = useSourcesApi()
const ADMIN_TOKEN = 'admin-token-for-the-scope-test'
let app: App
beforeAll(() => {
  app = api.buildApp({ SLUICE_ADMIN_TOKEN: ADMIN_TOKEN })
})

/** A signed-in member with a source on a real database, a setup link and a token. */
async function team() {
  const member = await api.signIn(app)
  const { url } = await api.readyDatabase()
  const created = await api.send(
    member.browser,
    'PUT',
    `/api/v1/sources${skip}`,
    { team_id: member.teamId, region: 'eu-west-1', database_url: url },
  )
  expect(created.status).toBe(201)
  const form = await asMember(
    member.browser,
    'POST',
    setupFormsPath(member.teamId),
    {},
  )
  expect(form.status).toBe(201)
  const { token } = await newToken(member.browser, member.teamId)
  api.passwords.add(token)
  return {
    ...member,
    sourceId: String(created.body.id),
    formId: String((form.body as { id: string }).id),
    token,
  }
}

/** A route's path with its parameters filled from `owner`'s things. */
function fill(path: string, owner: Awaited<ReturnType<typeof team>>): string {
  return path
    .replace(/\*$/, 'x')
    .replace(/:teamId\b/g, owner.teamId)
    .replace(/:id\b/g, owner.sourceId)
    .replace(/:formId\b/g, owner.formId)
    .replace(/:(\w+)/g, () => randomUUID())
}

describe('a token of team A', () => {
  it('reaches no route outside its scope: 403 under /api/v1, elsewhere as with no credentials', async () => {
    const a = await team()
    const routes = app.routes.filter(
      (r) => !(r.method === 'ALL' && r.path.endsWith('*')),
    )
    expect(routes.length).toBeGreaterThan(40)
    const asked: string[] = []
    for (const route of routes) {
      const method = route.method === 'ALL' ? 'GET' : route.method
      const path = fill(route.path, a)
      if (tokenMayCall(method, path)) continue
      asked.push(`${method} ${route.path}`)
      const body = method === 'GET' || method === 'HEAD' ? undefined : {}
      const withIt = await withToken(app, a.token, method, path, body)
      if (path.startsWith('/api/v1/')) {
        expect(withIt, `${method} ${path}`).toMatchObject({
          status: 403,
          body: { message: 'An API token cannot call this route' },
        })
        continue
      }
      const without = await new Browser(app).request(path, {
        method,
        headers: body ? { 'content-type': 'application/json' } : {},
        body: body ? '{}' : undefined,
      })
      expect(withIt.status, `${method} ${path}`).toBe(without.status)
    }
    // The ones that matter most are among them.
    expect(asked).toEqual(
      expect.arrayContaining([
        'GET /api/v1/users/me',
        'GET /api/v1/teams/:teamId/users',
        'POST /api/v1/teams/:teamId/api-tokens',
        'GET /api/v1/teams/:teamId/api-tokens',
        'DELETE /api/v1/teams/:teamId/api-tokens/:tokenId',
        'PATCH /api/v1/sources/:id',
        'GET /api/admin/teams',
      ]),
    )
    // Nothing changed: the source keeps its name, the team has one token.
    expect((await api.sourceRow(a.sourceId)).name).toBeNull()
    const { rows } = await api.db.query(
      'select 1 from api_tokens where team_id = $1',
      [a.teamId],
    )
    expect(rows).toHaveLength(1)
  })

  it("reaches its own team's sources, setup links and team, without an Origin", async () => {
    const a = await team()
    const b = await team()
    const as = (method: string, path: string, body?: unknown) =>
      withToken(app, a.token, method, path, body)

    expect(await as('GET', '/api/v1/teams')).toMatchObject({
      status: 200,
      body: [{ id: a.teamId }],
    })
    expect((await as('GET', `/api/v1/teams/${a.teamId}`)).status).toBe(200)

    const listed = await as('GET', '/api/v1/sources')
    expect(listed.status).toBe(200)
    expect((listed.body as { id: string }[]).map((s) => s.id)).toEqual([
      a.sourceId,
    ])

    const { url } = await api.readyDatabase()
    const made = await as('PUT', `/api/v1/sources${skip}`, {
      team_id: a.teamId,
      region: 'us-east-1',
      database_url: url,
    })
    expect(made.status).toBe(201)
    const madeId = (made.body as { id: string }).id
    expect((await api.sourceRow(madeId)).team_id).toBe(a.teamId)

    // Clearing the cache reaches the source (this test's runtime runs none: 503).
    const cleared = await as('POST', sourceRestartPath(a.sourceId), {
      clear_cache: true,
    })
    expect(cleared.status).toBe(503)

    const forms = await as('GET', setupFormsPath(a.teamId))
    expect(forms.status).toBe(200)
    expect((forms.body as { id: string }[]).map((f) => f.id)).toEqual([
      a.formId,
    ])
    const form = await as('POST', setupFormsPath(a.teamId), {})
    expect(form.status).toBe(201)
    const formId = (form.body as { id: string }).id
    expect(
      (await as('DELETE', `${setupFormsPath(a.teamId)}/${formId}`)).status,
    ).toBe(200)

    expect((await as('DELETE', `/api/v1/sources/${madeId}`)).status).toBe(200)
    expect(
      (await api.sourceRow(madeId)) as unknown as { deleted_at: Date | null },
    ).toMatchObject({ deleted_at: expect.any(Date) })
    // B's things are untouched by all of it.
    expect(await api.teamSources(b.teamId)).toBe(1)
  })

  it("answers 404 for team B's sources, setup links and team, exactly as for a non-member", async () => {
    const a = await team()
    const b = await team()
    const source = { message: 'Source not found' }
    const teamNotFound = { message: 'Team not found' }
    const cases: [string, string, unknown, unknown][] = [
      ['GET', `/api/v1/teams/${b.teamId}`, undefined, teamNotFound],
      ['GET', setupFormsPath(b.teamId), undefined, teamNotFound],
      ['POST', setupFormsPath(b.teamId), {}, teamNotFound],
      [
        'DELETE',
        `${setupFormsPath(b.teamId)}/${b.formId}`,
        undefined,
        teamNotFound,
      ],
      [
        'PUT',
        `/api/v1/sources${skip}`,
        {
          team_id: b.teamId,
          region: 'eu-west-1',
          database_url: 'postgres://u:p@127.0.0.1/db',
        },
        teamNotFound,
      ],
      ['POST', sourceRestartPath(b.sourceId), { clear_cache: true }, source],
      ['DELETE', `/api/v1/sources/${b.sourceId}`, undefined, source],
    ]
    for (const [method, path, body, answer] of cases) {
      const withIt = await withToken(app, a.token, method, path, body)
      expect(withIt, `${method} ${path}`).toMatchObject({
        status: 404,
        body: answer,
      })
      // A signed-in user of another team gets the very same.
      const stranger = await asMember(a.browser, method, path, body)
      expect(stranger, `${method} ${path}`).toMatchObject({
        status: 404,
        body: answer,
      })
    }
    expect((await api.sourceRow(b.sourceId)).state).not.toBe('deleted')
    expect(await api.teamSources(b.teamId)).toBe(1)
  })

  it('is not a session: cookie requests still need our Origin, and a cookie adds nothing to a token', async () => {
    const a = await team()
    const b = await team()
    const forged = await b.browser.request(setupFormsPath(b.teamId), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(forged.status).toBe(403)
    // B's cookie beside A's token: the token decides, so B's team stays out of reach.
    const both = await b.browser.request(setupFormsPath(b.teamId), {
      headers: { authorization: `Bearer ${a.token}` },
    })
    expect(both.status).toBe(404)
    // The admin API takes only its own token.
    const admin = await withToken(app, a.token, 'GET', '/api/admin/teams')
    expect(admin.status).toBe(401)
  })
})
