// A stand-in for Neon on 127.0.0.1, answering with API v2's field names, paging and status
// codes: its OAuth server (/oauth2/auth approves at once; /oauth2/token rotates refresh tokens;
// /oauth2/revoke) and, under /api/v2, projects (cursor pages of at most `pageSize`, ended by an
// empty page), branches, databases, roles, connection_uri (built from the seeded endpoint, so
// it reaches a real Postgres), and PATCH /projects/{id} with operations to follow.
//
// Scripting, in-process or from another process (e2e) through
// `POST {url}/_control/{method}` with a JSON array of arguments, e.g.
//   curl -X POST $URL/_control/seed -d '[{"projects":[{"id":"p1","name":"App", ...}]}]'
// Methods: seed({projects?, pageSize?, organizations?, requireOrgId?}), addPersonalToken(key), fail(path, status) (the exact
// API path under /api/v2, e.g. '/projects', answers `status` until fail(path, null)),
// revokeAll(), revokeToken(token), setExpiresIn(seconds), holdTokens(), releaseTokens(), heldTokens(), setOperationPolls(n) (how many reads an operation stays
// 'running'; null: until finishOperations()), finishOperations(), project(id) (its state),
// reset(). The e2e server writes this fake's URL to e2e/support/paths.ts's neonUrlFile.
import { randomUUID } from 'node:crypto'
import {
  basicCredentials,
  bearer,
  GrantStore,
  json,
  readBody,
  serve,
} from './fake-provider-http.ts'

type NeonRole = { name: string; password: string }
type NeonBranch = {
  id: string
  name: string
  default?: boolean
  databases: { id: number; name: string; owner_name: string }[]
  roles: NeonRole[]
  /** Where this branch's compute listens: a real Postgres the test started. */
  endpoint: { host: string; port: number }
}
export type NeonProject = {
  id: string
  /** The organization that owns it; with requireOrgId, listed only under its org_id. */
  org_id?: string
  name: string
  created_at: string
  settings?: { enable_logical_replication?: boolean }
  branches: NeonBranch[]
}

type Operation = { id: string; status: string; polls: number }

const NEON_CLIENT = { id: 'neon-client', secret: 'neon-secret' }

export async function startFakeNeon() {
  let grants = new GrantStore('neon_oauth_')
  let projects: NeonProject[] = []
  let pageSize = 400
  let operationPolls: number | null = 1
  let organizations: { id: string; name: string }[] = []
  /** Like an organization's API key: GET /projects without org_id answers 400. */
  let requireOrgId = false
  const operations = new Map<string, Operation>()
  const failures = new Map<string, number>()
  const calls: string[] = []

  const control = {
    seed(seed: {
      projects?: NeonProject[]
      pageSize?: number
      organizations?: { id: string; name: string }[]
      requireOrgId?: boolean
    }) {
      projects = seed.projects ?? projects
      pageSize = seed.pageSize ?? pageSize
      organizations = seed.organizations ?? organizations
      requireOrgId = seed.requireOrgId ?? requireOrgId
    },
    addPersonalToken: (key: string) => grants.addPersonalToken(key),
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
    setOperationPolls(polls: number | null) {
      operationPolls = polls
    },
    finishOperations() {
      for (const op of operations.values()) op.status = 'finished'
    },
    project: (id: string) => projects.find((p) => p.id === id) ?? null,
    reset() {
      grants.releaseTokens()
      grants = new GrantStore('neon_oauth_')
      projects = []
      pageSize = 400
      operationPolls = 1
      organizations = []
      requireOrgId = false
      operations.clear()
      failures.clear()
      calls.length = 0
    },
    tokenRequests: () => grants.tokenRequests,
    revoked: () => grants.revoked,
    calls: () => calls,
  }

  const api = async (
    method: string,
    path: string,
    url: URL,
    body: () => Promise<string>,
  ): Promise<[number, unknown]> => {
    if (method === 'GET' && path === '/users/me/organizations')
      return [200, { organizations }]
    if (method === 'GET' && path === '/projects') {
      const orgId = url.searchParams.get('org_id')
      if (requireOrgId && !orgId)
        return [400, { code: '', message: 'org_id is required' }]
      const start = Number(url.searchParams.get('cursor') ?? 0)
      const limit = Math.min(
        Number(url.searchParams.get('limit') ?? 10),
        pageSize,
      )
      const listed = orgId
        ? projects.filter((p) => p.org_id === orgId)
        : projects
      const page = listed.slice(start, start + limit)
      return [
        200,
        {
          projects: page.map(({ branches: _, ...p }) => ({
            region_id: 'aws-us-east-2',
            org_id: 'org-fake',
            settings: {},
            ...p,
          })),
          // Like Neon: a cursor on every page; the page after the last is empty.
          pagination: { cursor: String(start + page.length) },
        },
      ]
    }
    const [, projectId = '', rest = ''] =
      /^\/projects\/([^/]+)(.*)$/.exec(path) ?? []
    const project = projects.find((p) => p.id === projectId)
    if (!project) return [404, { code: '', message: 'project not found' }]
    if (method === 'PATCH' && rest === '') {
      const patch = JSON.parse(await body()) as {
        project?: { settings?: { enable_logical_replication?: boolean } }
      }
      project.settings = { ...project.settings, ...patch.project?.settings }
      const op: Operation = { id: randomUUID(), status: 'running', polls: 0 }
      operations.set(op.id, op)
      const { branches: _, ...shown } = project
      return [
        200,
        {
          project: shown,
          operations: [
            { id: op.id, status: op.status, action: 'apply_config' },
          ],
        },
      ]
    }
    const opId = /^\/operations\/([^/]+)$/.exec(rest)?.[1]
    if (method === 'GET' && opId) {
      const op = operations.get(opId)
      if (!op) return [404, { code: '', message: 'operation not found' }]
      op.polls += 1
      if (operationPolls !== null && op.polls > operationPolls)
        op.status = 'finished'
      return [
        200,
        { operation: { id: op.id, status: op.status, action: 'apply_config' } },
      ]
    }
    if (method === 'GET' && rest === '/branches')
      return [
        200,
        {
          branches: project.branches.map((b) => ({
            id: b.id,
            name: b.name,
            default: b.default === true,
            primary: b.default === true,
            project_id: project.id,
            current_state: 'ready',
            created_at: project.created_at,
          })),
        },
      ]
    if (method === 'GET' && rest === '/connection_uri') {
      const q = url.searchParams
      const branch = project.branches.find((b) => b.id === q.get('branch_id'))
      const role = branch?.roles.find((r) => r.name === q.get('role_name'))
      const database = branch?.databases.find(
        (d) => d.name === q.get('database_name'),
      )
      if (!branch || !role || !database)
        return [404, { code: '', message: 'not found' }]
      const host =
        q.get('pooled') === 'true'
          ? `pooler-${branch.endpoint.host}`
          : branch.endpoint.host
      const uri = `postgresql://${encodeURIComponent(role.name)}:${encodeURIComponent(role.password)}@${host}:${branch.endpoint.port}/${encodeURIComponent(database.name)}?sslmode=prefer`
      return [200, { uri }]
    }
    const [, branchId = '', what = ''] =
      /^\/branches\/([^/]+)\/(databases|roles)$/.exec(rest) ?? []
    const branch = project.branches.find((b) => b.id === branchId)
    if (method === 'GET' && branch && what === 'databases')
      return [
        200,
        {
          databases: branch.databases.map((d) => ({
            ...d,
            branch_id: branch.id,
          })),
        },
      ]
    if (method === 'GET' && branch && what === 'roles')
      return [
        200,
        {
          roles: branch.roles.map((r) => ({
            branch_id: branch.id,
            name: r.name,
            protected: false,
          })),
        },
      ]
    return [404, { code: '', message: 'not found' }]
  }

  const clientOk = (id: string, secret: string) =>
    id === NEON_CLIENT.id && secret === NEON_CLIENT.secret

  const server = await serve(async (req, res, url) => {
    const path = url.pathname
    if (req.method === 'GET' && path === '/oauth2/auth') {
      if (url.searchParams.get('client_id') !== NEON_CLIENT.id)
        return json(res, 400, { error: 'invalid_client' })
      const back = grants.authorize(url)
      if (!back) return json(res, 400, { error: 'invalid_request' })
      res.writeHead(302, { location: back })
      return void res.end()
    }
    if (req.method === 'POST' && path === '/oauth2/token') {
      const [id, secret] = basicCredentials(req)
      const form = new URLSearchParams(await readBody(req))
      if (!clientOk(id, secret))
        return json(res, 401, { error: 'invalid_client' })
      await grants.tokenTurn()
      const tokens = grants.exchange(form, id)
      if (!tokens) return json(res, 400, { error: 'invalid_grant' })
      return json(res, 200, tokens)
    }
    if (req.method === 'POST' && path === '/oauth2/revoke') {
      const [id, secret] = basicCredentials(req)
      if (!clientOk(id, secret))
        return json(res, 401, { error: 'invalid_client' })
      grants.revoke(new URLSearchParams(await readBody(req)).get('token') ?? '')
      return json(res, 200, {})
    }
    if (!path.startsWith('/api/v2/'))
      return json(res, 404, { message: 'not found' })
    const apiPath = path.slice('/api/v2'.length)
    calls.push(`${req.method} ${apiPath}${url.search}`)
    const failure = failures.get(apiPath)
    if (failure)
      return json(res, failure, { code: '', message: `failed with ${failure}` })
    if (!grants.accepts(bearer(req)))
      return json(res, 401, { code: '', message: 'authorization failed' })
    const [status, body] = await api(req.method ?? 'GET', apiPath, url, () =>
      readBody(req),
    )
    return json(res, status, body)
  }, control)

  return {
    ...control,
    url: server.url,
    /** The variables that point Sluice at this fake (OAuth configured). */
    env: {
      NEON_CLIENT_ID: NEON_CLIENT.id,
      NEON_CLIENT_SECRET: NEON_CLIENT.secret,
      NEON_OAUTH_URL: server.url,
      NEON_API_URL: `${server.url}/api/v2`,
    },
    close: server.close,
  }
}

export type FakeNeon = Awaited<ReturnType<typeof startFakeNeon>>
