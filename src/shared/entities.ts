// Zod schemas of the entities the API returns (spec §3). Both sides parse with these.
import { z } from 'zod'
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from './constants.ts'

export const idSchema = z.uuid()

export const authUserSchema = z.object({
  id: idSchema,
  email: z.string(),
  name: z.string(),
})
export type AuthUser = z.infer<typeof authUserSchema>

export const userSchema = authUserSchema.extend({
  team_id: idSchema.nullable(),
  created_at: z.string(),
})
export type User = z.infer<typeof userSchema>

export const teamSchema = z.object({ id: idSchema, name: z.string() })
export type Team = z.infer<typeof teamSchema>

export const teamUserSchema = z.object({
  id: idSchema,
  name: z.string(),
  email: z.string(),
})
export type TeamUser = z.infer<typeof teamUserSchema>

export const sourceStates = [
  'initializing',
  'waiting',
  'active',
  'reconnecting',
  'error',
  'stopping',
  'delete_failed',
  'preparing_transfer',
  'transferring',
] as const

export const sourceSchema = z.object({
  id: idSchema,
  team_id: idSchema,
  name: z.string().nullable(),
  state: z.string(),
  region: z.string(),
  connection_url: z.string(),
  source_secret: z.string(),
  deleted_at: z.string().nullable(),
  target_electric_url: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Why the source is in `error` or `reconnecting`. */
  state_reason: z.string().nullable(),
  /** Replication health as the engine last measured it; null until measured. */
  wal_retained_bytes: z.coerce.number().nullable(),
  wal_lag_bytes: z.coerce.number().nullable(),
  wal_status: z.string().nullable(),
  health_checked_at: z.string().nullable(),
})
export type Source = z.infer<typeof sourceSchema>

export const nameSchema = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(NAME_MAX_LENGTH, `Name must be at most ${NAME_MAX_LENGTH} characters`)
export const emailSchema = z
  // Length first: an email's pattern need not run over a megabyte.
  .string()
  .max(EMAIL_MAX_LENGTH, `Email must be at most ${EMAIL_MAX_LENGTH} characters`)
  .pipe(z.email('Enter a valid email address'))

export const localLoginSchema = z.object({
  name: nameSchema,
  email: emailSchema,
})
export type LocalLogin = z.infer<typeof localLoginSchema>

export const sourceEventLogSchema = z.object({
  id: idSchema,
  source_id: idSchema,
  event_name: z.string(),
  event_details: z.record(z.string(), z.unknown()),
  instance_id: z.string(),
  emitted_at: z.string(),
})
export type SourceEventLog = z.infer<typeof sourceEventLogSchema>
