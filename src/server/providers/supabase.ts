// Supabase's Management API as the wizard needs it: organizations, and an organization's
// projects (paged by offset; followed to the end). Field names are Supabase's; ours are the
// entities' (shared/entities.ts).
import { z } from 'zod'
import type { ProviderApi } from './upstream.ts'

const PAGE_LIMIT = 100 // the API's maximum

const organizations = z.array(
  z.object({
    id: z.string().optional(),
    slug: z.string().optional(),
    name: z.string(),
  }),
)

const projectsPage = z.object({
  projects: z.array(
    z.object({ ref: z.string(), name: z.string(), region: z.string() }),
  ),
  pagination: z.object({
    count: z.number(),
    limit: z.number(),
    offset: z.number(),
  }),
})

export type Organization = { id: string; name: string }
export type SupabaseProject = {
  id: string
  name: string
  region: string
  organization_name: string
}

const byName = <T extends { name: string }>(a: T, b: T) =>
  a.name.localeCompare(b.name)

/** The path that checks a token cheaply (one list). */
export const SUPABASE_CHECK_PATH = '/v1/organizations'

export async function listOrganizations(
  api: ProviderApi,
): Promise<Organization[]> {
  const orgs = await api.get('/v1/organizations', organizations)
  // `id` is deprecated; the slug is what the projects endpoint takes.
  return orgs
    .map((o) => ({ id: o.slug ?? o.id ?? '', name: o.name }))
    .filter((o) => o.id !== '')
    .sort(byName)
}

/** null when the organization is not one of the user's. */
export async function listProjects(
  api: ProviderApi,
  orgId: string,
): Promise<SupabaseProject[] | null> {
  const org = (await listOrganizations(api)).find((o) => o.id === orgId)
  if (!org) return null
  const projects: SupabaseProject[] = []
  for (let offset = 0; ;) {
    const query = new URLSearchParams({
      offset: String(offset),
      limit: String(PAGE_LIMIT),
    })
    const page = await api.get(
      `/v1/organizations/${encodeURIComponent(orgId)}/projects?${query}`,
      projectsPage,
    )
    for (const p of page.projects)
      projects.push({
        id: p.ref,
        name: p.name,
        region: p.region,
        organization_name: org.name,
      })
    offset += page.projects.length
    if (page.projects.length === 0 || offset >= page.pagination.count) break
  }
  return projects.sort(byName)
}
