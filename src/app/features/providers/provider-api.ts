// The provider calls (/api/public/supabase, /api/public/neon) and the connections of
// /api/v1/provider-connections: paths, answer schemas, and how each failure reads. Lists are REST
// here, not the store: they are the provider's data, read live for the wizard and never kept.
import { z } from 'zod'
import { api } from '../../lib/api.ts'
import {
  API_MOUNTS,
  neonBranchesPath,
  neonDatabasesPath,
  neonLogicalReplicationPath,
  NEON_PROJECTS_PATH,
  neonRolesPath,
  providerConnectionPath,
  SUPABASE_ORGANIZATIONS_PATH,
  supabaseProjectsPath,
} from '../../../shared/api-routes.ts'

export const PROVIDERS = ['supabase', 'neon'] as const
export type Provider = (typeof PROVIDERS)[number]

export const PROVIDER_NAMES: Record<Provider, string> = {
  supabase: 'Supabase',
  neon: 'Neon',
}

const organizationSchema = z.object({ id: z.string(), name: z.string() })
const supabaseProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  region: z.string(),
  organization_name: z.string(),
})
const neonProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
})
const branchSchema = z.object({
  id: z.string(),
  name: z.string(),
  primary: z.boolean(),
})
const neonDatabaseSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  name: z.string(),
  owner_name: z.string(),
})
const roleSchema = z.object({ name: z.string() })

export type Organization = z.infer<typeof organizationSchema>
export type SupabaseProject = z.infer<typeof supabaseProjectSchema>
export type NeonProject = z.infer<typeof neonProjectSchema>
export type Branch = z.infer<typeof branchSchema>

/** Each list a wizard page reads: its path, its schema and the words its page shows. */
export const providerLists = {
  organizations: () => ({
    path: SUPABASE_ORGANIZATIONS_PATH,
    schema: z.array(organizationSchema),
    noun: 'organizations',
    fallback: 'Failed to fetch organizations',
  }),
  supabaseProjects: (orgId: string) => ({
    path: supabaseProjectsPath(orgId),
    schema: z.array(supabaseProjectSchema),
    noun: 'projects',
    fallback: 'Failed to fetch organization projects',
  }),
  neonProjects: () => ({
    path: NEON_PROJECTS_PATH,
    schema: z.array(neonProjectSchema),
    noun: 'projects',
    fallback: 'Failed to fetch Neon projects',
  }),
  branches: (projectId: string) => ({
    path: neonBranchesPath(projectId),
    schema: z.array(branchSchema),
    noun: 'branches',
    fallback: 'Failed to fetch Neon branches',
  }),
  databases: (projectId: string, branchId: string) => ({
    path: neonDatabasesPath(projectId, branchId),
    schema: z.array(neonDatabaseSchema),
    noun: 'databases',
    fallback: 'Failed to fetch Neon databases',
  }),
  roles: (projectId: string, branchId: string) => ({
    path: neonRolesPath(projectId, branchId),
    schema: z.array(roleSchema),
    noun: 'roles',
    fallback: 'Failed to fetch Neon roles',
  }),
}

export type ListRequest<T> = {
  path: string
  schema: z.ZodType<T[]>
  noun: string
  fallback: string
}

export function fetchList<T>(
  request: ListRequest<T>,
  signal: AbortSignal,
): Promise<T[]> {
  return api(request.path, request.schema, { signal })
}

// GET /api/v1/provider-connections: which providers are connected, and how one can connect.
const connectionSchema = z.object({
  method: z.enum(['oauth', 'token']),
  created_at: z.string(),
})
const providerConnectionSchema = z.object({
  provider: z.enum(PROVIDERS),
  oauth: z.boolean(),
  connection: connectionSchema.nullable(),
})
export type ProviderConnection = z.infer<typeof providerConnectionSchema>

const connectionsSchema = z.object({
  providers: z.array(providerConnectionSchema),
  /** Where a Supabase project's database is (`{ref}` its ref); absent: Supabase's own. */
  supabase_db_host_template: z.string().min(1).optional().catch(undefined),
})
export type Connections = z.infer<typeof connectionsSchema>

export function fetchConnections(signal?: AbortSignal): Promise<Connections> {
  return api(API_MOUNTS.providerConnections, connectionsSchema, { signal })
}

export function saveToken(provider: Provider, token: string): Promise<unknown> {
  return api(providerConnectionPath(provider), z.unknown(), {
    method: 'PUT',
    body: { token: token.trim() },
  })
}

export function disconnect(provider: Provider): Promise<unknown> {
  return api(providerConnectionPath(provider), z.unknown(), {
    method: 'DELETE',
  })
}

/** 200 `{enabled: true}` once Neon's operation ended; it can take a while (504 if too long). */
export function enableLogicalReplication(projectId: string): Promise<unknown> {
  return api(
    neonLogicalReplicationPath(projectId),
    z.object({ enabled: z.literal(true) }),
    { method: 'POST' },
  )
}
