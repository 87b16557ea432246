// Neon's API v2 as the wizard needs it: projects (cursor pages, followed to the end), branches,
// databases, roles, a role's direct connection URI, and turning on logical replication.
import { z } from 'zod'
import { UpstreamError, type ProviderApi } from './upstream.ts'

const PAGE_LIMIT = 400 // the API's maximum

const projectsPage = z.object({
  projects: z.array(
    z.object({ id: z.string(), name: z.string(), created_at: z.string() }),
  ),
  pagination: z.object({ cursor: z.string().optional() }).optional(),
})
const branches = z.object({
  branches: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      default: z.boolean().optional(),
    }),
  ),
})
const databases = z.object({
  databases: z.array(
    z.object({
      id: z.union([z.number(), z.string()]),
      name: z.string(),
      owner_name: z.string(),
    }),
  ),
})
const roles = z.object({ roles: z.array(z.object({ name: z.string() })) })
const connectionUri = z.object({ uri: z.string() })
const operation = z.object({ id: z.string(), status: z.string() })
const patched = z.object({ operations: z.array(operation) })
const operationAnswer = z.object({ operation })

const byName = <T extends { name: string }>(a: T, b: T) =>
  a.name.localeCompare(b.name)

export const NEON_CHECK_PATH = '/projects?limit=1'

const project = (id: string) => `/projects/${encodeURIComponent(id)}`
const branch = (projectId: string, branchId: string) =>
  `${project(projectId)}/branches/${encodeURIComponent(branchId)}`

const organizations = z.object({
  organizations: z.array(z.object({ id: z.string() })),
})

type Project = { id: string; name: string; created_at: string }

/**
 * Every project the token sees. Some keys (an organization's, or a user's in organizations)
 * must name the organization: Neon answers 400 without org_id, and the list then comes from
 * each of the user's organizations in turn.
 */
export async function listProjects(api: ProviderApi): Promise<Project[]> {
  try {
    return (await projectPages(api, null)).sort(byName)
  } catch (error) {
    if (!(error instanceof UpstreamError) || error.status !== 400) throw error
  }
  const orgs = await api.get('/users/me/organizations', organizations)
  const all: Project[] = []
  for (const org of orgs.organizations)
    all.push(...(await projectPages(api, org.id)))
  return all.sort(byName)
}

async function projectPages(api: ProviderApi, orgId: string | null) {
  const all: Project[] = []
  let cursor: string | undefined
  // An empty page ends the list; the page count is bounded so a looping cursor cannot spin.
  for (let pages = 0; pages < 1000; pages += 1) {
    const query = new URLSearchParams({ limit: String(PAGE_LIMIT) })
    if (orgId) query.set('org_id', orgId)
    if (cursor) query.set('cursor', cursor)
    const page = await api.get(`/projects?${query}`, projectsPage)
    for (const { id, name, created_at } of page.projects)
      all.push({ id, name, created_at })
    cursor = page.pagination?.cursor
    if (page.projects.length === 0 || !cursor) break
  }
  return all
}

export async function listBranches(api: ProviderApi, projectId: string) {
  const answer = await api.get(`${project(projectId)}/branches`, branches)
  return answer.branches
    .map((b) => ({ id: b.id, name: b.name, primary: b.default === true }))
    .sort((a, b) => Number(b.primary) - Number(a.primary) || byName(a, b))
}

export async function listDatabases(
  api: ProviderApi,
  projectId: string,
  branchId: string,
) {
  const answer = await api.get(
    `${branch(projectId, branchId)}/databases`,
    databases,
  )
  return answer.databases
    .map((d) => ({ id: d.id, name: d.name, owner_name: d.owner_name }))
    .sort(byName)
}

export async function listRoles(
  api: ProviderApi,
  projectId: string,
  branchId: string,
) {
  const answer = await api.get(`${branch(projectId, branchId)}/roles`, roles)
  return answer.roles.map((r) => ({ name: r.name })).sort(byName)
}

/** The role's direct (not pooled) URI: a pooler cannot carry logical replication. */
export async function directConnectionUri(
  api: ProviderApi,
  projectId: string,
  branchId: string,
  database: string,
  role: string,
): Promise<string> {
  const query = new URLSearchParams({
    branch_id: branchId,
    database_name: database,
    role_name: role,
    pooled: 'false',
  })
  return (
    await api.get(
      `${project(projectId)}/connection_uri?${query}`,
      connectionUri,
    )
  ).uri
}

export class OperationTimeoutError extends Error {}

const DONE = new Set(['finished', 'skipped'])
const FAILED = new Set(['failed', 'error', 'cancelled'])

export type OperationTiming = { pollMs: number; timeoutMs: number }

/** How often the operations enabling logical replication are looked at, and for how long. */
export const NEON_OPERATIONS: OperationTiming = {
  pollMs: 1_000,
  timeoutMs: 120_000,
}

/** Sets enable_logical_replication, then follows the operations it started until they end. */
export async function enableLogicalReplication(
  api: ProviderApi,
  projectId: string,
  timing: OperationTiming,
): Promise<void> {
  const answer = await api.send(project(projectId), patched, {
    method: 'PATCH',
    body: { project: { settings: { enable_logical_replication: true } } },
  })
  const deadline = Date.now() + timing.timeoutMs
  for (const { id } of answer.operations) {
    for (;;) {
      const { operation: op } = await api.get(
        `${project(projectId)}/operations/${encodeURIComponent(id)}`,
        operationAnswer,
      )
      if (DONE.has(op.status)) break
      if (FAILED.has(op.status))
        throw new UpstreamError(
          `Neon's operation to enable logical replication ${op.status}.`,
        )
      if (Date.now() >= deadline)
        throw new OperationTimeoutError(
          `Neon did not finish enabling logical replication within ${timing.timeoutMs / 1000} seconds; try again shortly.`,
        )
      await new Promise((resolve) => setTimeout(resolve, timing.pollMs))
    }
  }
}
