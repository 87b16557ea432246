// The entities the API and the shapes return: zod schemas for what a side parses
// (ids, the signed-in user, the local sign-in form), plain types for the rest.
import { z } from 'zod'
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from './constants.ts'

export const idSchema = z.uuid()

export const authUserSchema = z.object({
  id: idSchema,
  email: z.string(),
  name: z.string(),
})
export type AuthUser = z.infer<typeof authUserSchema>

export type User = AuthUser & { team_id: string | null; created_at: string }

export type Team = { id: string; name: string }

export type TeamUser = { id: string; name: string; email: string }

export type Source = {
  id: string
  /**
   * Always a team here. A claimable source has none until it is claimed (sources.team_id is
   * nullable), but every read that yields this type goes through the team (a member's join, the
   * `team_id = $1` shape), so a team-less row never reaches it.
   */
  team_id: string
  name: string | null
  /** Electric Cloud's project and environment, as labels; null: none. */
  project: string | null
  environment: string | null
  state: string
  region: string
  connection_url: string
  source_secret: string
  deleted_at: string | null
  target_electric_url: string | null
  created_at: string
  updated_at: string
  /** Why the source is in `error` or `reconnecting`. */
  state_reason: string | null
  /** Replication health as the engine last measured it; null until measured. */
  wal_retained_bytes: number | null
  wal_lag_bytes: number | null
  wal_status: string | null
  health_checked_at: string | null
  /**
   * Seconds until the slot would be invalidated at the rate retained WAL grew lately; null
   * when the slot is not falling behind or the database sets no max_slot_wal_keep_size.
   */
  wal_forecast_seconds: number | null
  /** After a rotation: the secret before, which works until its grace ends. */
  previous_source_secret: string | null
  previous_secret_valid_until: string | null
}

const nameSchema = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(NAME_MAX_LENGTH, `Name must be at most ${NAME_MAX_LENGTH} characters`)
const emailSchema = z
  // Length first: an email's pattern need not run over a megabyte.
  .string()
  .max(EMAIL_MAX_LENGTH, `Email must be at most ${EMAIL_MAX_LENGTH} characters`)
  .pipe(z.email('Enter a valid email address'))

export const localLoginSchema = z.object({
  name: nameSchema,
  email: emailSchema,
})

export type SourceEventLog = {
  id: string
  source_id: string
  event_name: string
  event_details: Record<string, unknown>
  instance_id: string
  emitted_at: string
}

/** A shape the engine holds for a source (its live shapes), as the dashboard syncs it. */
export type LiveShape = {
  source_id: string
  handle: string
  table_schema: string
  table_name: string
  /** Cut to what the dashboard shows, as are the params (live-shapes-plan.ts). */
  where_clause: string | null
  params: string[]
  row_count: number
  log_bytes: number
  created_at: string
  /** When a client was last answered from it; null if never since the server started it. */
  last_read_at: string | null
}
