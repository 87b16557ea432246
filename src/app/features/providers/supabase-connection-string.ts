// The first provider's connection string, built in the browser: the project's direct
// database host on port 5432 (its poolers cannot replicate), the typed user, password and
// database, and sslmode=require (Supabase refuses unencrypted connections).
import {
  SUPABASE_DB_PORT,
  SUPABASE_DEFAULT_DATABASE,
  SUPABASE_DEFAULT_USER,
} from '../../../shared/constants.ts'

/**
 * Supabase's direct host; `{ref}` is the project ref (our project id). The server names its
 * own (SUPABASE_DB_HOST_TEMPLATE, in GET /api/v1/provider-connections), e.g. for tests.
 */
const SUPABASE_DB_HOST_TEMPLATE = `db.{ref}.supabase.co:${SUPABASE_DB_PORT}`

export type SupabaseCredentials = {
  projectRef: string
  user: string
  password: string
  database: string
}

export const DEFAULT_CREDENTIALS = {
  user: SUPABASE_DEFAULT_USER,
  database: SUPABASE_DEFAULT_DATABASE,
  password: '',
}

/** Continue and validation need a project and every field filled. */
export function credentialsComplete(c: SupabaseCredentials): boolean {
  return Boolean(
    c.projectRef && c.user.trim() && c.database.trim() && c.password,
  )
}

export function supabaseConnectionString(
  c: SupabaseCredentials,
  hostTemplate = SUPABASE_DB_HOST_TEMPLATE,
): string {
  const host = hostTemplate.replace('{ref}', c.projectRef)
  // A template without a port gets Supabase's direct port.
  const hostPort = /:\d+$/.test(host) ? host : `${host}:${SUPABASE_DB_PORT}`
  // Every part is percent-encoded: a password with '@', ':', '/' or '%' would otherwise end
  // the userinfo early and point the URL at another host.
  const user = encodeURIComponent(c.user.trim())
  const password = encodeURIComponent(c.password)
  const database = encodeURIComponent(c.database.trim())
  return `postgresql://${user}:${password}@${hostPort}/${database}?sslmode=require`
}
