// A stand-in for Supabase's Management API on 127.0.0.1, answering with its field names, paging
// and status codes: OAuth (authorize approves at once and redirects back with a code; token
// answers 201 and rotates refresh tokens; revoke takes JSON), /v1/organizations and an
// organization's /projects (offset pages of at most `pageSize`).
//
// Scripting, in-process or from another process (e2e) through
// `POST {url}/_control/{method}` with a JSON array of arguments, e.g.
//   curl -X POST $URL/_control/seed -d '[{"organizations":[...],"projects":{"slug":[...]}}]'
// Methods: seed({organizations?, projects?, pageSize?}), addPersonalToken(token),
// fail(path, status) (that exact API path answers `status` until fail(path, null)),
// revokeAll(), revokeToken(token), setExpiresIn(seconds), holdTokens(), releaseTokens(), heldTokens(), reset(). The e2e server writes this fake's URL to
// e2e/support/paths.ts's supabaseUrlFile.
import {
  basicCredentials,
  bearer,
  GrantStore,
  json,
  readBody,
  serve,
} from './fake-provider-http.ts'

type SupabaseOrganization = { id: string; slug: string; name: string }
type SupabaseProject = { ref: string; name: string; region: string }

type Seed = {
  organizations?: SupabaseOrganization[]
  /** By organization slug. */
  projects?: Record<string, SupabaseProject[]>
  pageSize?: number
}

const SUPABASE_CLIENT = {
  id: 'supabase-client',
  secret: 'supabase-secret',
}

export async function startFakeSupabase() {
  let grants = new GrantStore('sbp_oauth_')
  let organizations: SupabaseOrganization[] = []
  let projects: Record<string, SupabaseProject[]> = {}
  let pageSize = 100
  const failures = new Map<string, number>()
  /** Every API path Sluice called, with its query (tests check paging). */
  const calls: string[] = []

  const control = {
    seed(seed: Seed) {
      organizations = seed.organizations ?? organizations
      projects = seed.projects ?? projects
      pageSize = seed.pageSize ?? pageSize
    },
    addPersonalToken: (token: string) => grants.addPersonalToken(token),
    fail(path: string, status: number | null) {
      if (status === null) failures.delete(path)
      else failures.set(path, status)
    },
    revokeAll: () => grants.revokeAll(),
    /** As if the user deleted this token (or revoked its grant) in the provider's console. */
    revokeToken: (token: string) => grants.revoke(token),
    setExpiresIn(seconds: number) {
      grants.expiresIn = seconds
    },
    /** Holds every token answer until releaseTokens(): a refresh stays in flight. */
    holdTokens: () => grants.holdTokens(),
    releaseTokens: () => grants.releaseTokens(),
    heldTokens: () => grants.held,
    reset() {
      grants.releaseTokens()
      grants = new GrantStore('sbp_oauth_')
      organizations = []
      projects = {}
      pageSize = 100
      failures.clear()
      calls.length = 0
    },
    tokenRequests: () => grants.tokenRequests,
    revoked: () => grants.revoked,
    calls: () => calls,
  }

  const clientOk = (id: string, secret: string) =>
    id === SUPABASE_CLIENT.id && secret === SUPABASE_CLIENT.secret

  const server = await serve(async (req, res, url) => {
    const path = url.pathname
    if (req.method === 'GET' && path === '/v1/oauth/authorize') {
      if (url.searchParams.get('client_id') !== SUPABASE_CLIENT.id)
        return json(res, 400, { message: 'Invalid client' })
      const back = grants.authorize(url)
      if (!back) return json(res, 400, { message: 'PKCE S256 is required' })
      res.writeHead(302, { location: back })
      return void res.end()
    }
    if (req.method === 'POST' && path === '/v1/oauth/token') {
      const [id, secret] = basicCredentials(req)
      const form = new URLSearchParams(await readBody(req))
      if (!clientOk(id, secret))
        return json(res, 401, { error: 'invalid_client' })
      await grants.tokenTurn()
      const tokens = grants.exchange(form, id)
      if (!tokens) return json(res, 400, { error: 'invalid_grant' })
      return json(res, 201, tokens)
    }
    if (req.method === 'POST' && path === '/v1/oauth/revoke') {
      const body = JSON.parse(await readBody(req)) as Record<string, string>
      if (!clientOk(body.client_id ?? '', body.client_secret ?? ''))
        return json(res, 401, { message: 'Invalid client' })
      grants.revoke(body.refresh_token ?? '')
      return json(res, 204)
    }

    calls.push(`${path}${url.search}`)
    const failure = failures.get(path)
    if (failure)
      return json(res, failure, { message: `Failed with ${failure}` })
    if (!grants.accepts(bearer(req)))
      return json(res, 401, { message: 'Unauthorized' })
    if (req.method === 'GET' && path === '/v1/organizations')
      return json(res, 200, organizations)
    const slug = /^\/v1\/organizations\/([^/]+)\/projects$/.exec(path)?.[1]
    if (req.method === 'GET' && slug !== undefined) {
      if (!organizations.some((o) => o.slug === slug))
        return json(res, 404, { message: 'Organization not found' })
      const all = projects[slug] ?? []
      const offset = Number(url.searchParams.get('offset') ?? 0)
      const limit = Math.min(
        Number(url.searchParams.get('limit') ?? 100),
        pageSize,
      )
      return json(res, 200, {
        projects: all.slice(offset, offset + limit).map((p) => ({
          ...p,
          status: 'ACTIVE_HEALTHY',
          cloud_provider: 'AWS',
          inserted_at: '2026-01-01T00:00:00Z',
          databases: [],
        })),
        pagination: { count: all.length, limit, offset },
      })
    }
    return json(res, 404, { message: 'Not found' })
  }, control)

  return {
    ...control,
    url: server.url,
    /** The variables that point Sluice at this fake (OAuth configured). */
    env: {
      SUPABASE_CLIENT_ID: SUPABASE_CLIENT.id,
      SUPABASE_CLIENT_SECRET: SUPABASE_CLIENT.secret,
      SUPABASE_API_URL: server.url,
    },
    close: server.close,
  }
}

export type FakeSupabase = Awaited<ReturnType<typeof startFakeSupabase>>
