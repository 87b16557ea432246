// The answer of POST /api/public/validate-pg-database-url (docs/using.md, Checking a database
// first), a contract with API clients too, shared by the server's readiness checks and the app's
// results panel.
import { z } from 'zod'
import { DATABASE_URL_MAX_LENGTH } from './constants.ts'

export const VALIDATE_DATABASE_URL_PATH = '/api/public/validate-pg-database-url'

/** A pasted database URL, bounded before anything parses it. */
export const databaseUrlSchema = z
  .string()
  .max(
    DATABASE_URL_MAX_LENGTH,
    `A database URL must be at most ${DATABASE_URL_MAX_LENGTH} characters`,
  )

export const validateDatabaseRequestSchema = z.object({
  database_url: databaseUrlSchema,
})

/** Extra findings beyond the readiness flags; the panel shows them as warnings. */
const validationDiagnosticsSchema = z.object({
  /** Replication slots still free (max_replication_slots minus those in use). */
  free_replication_slots: z.number().int().nullable(),
  max_wal_senders: z.number().int().nullable(),
  /** The server is a read replica (pg_is_in_recovery), which cannot host a slot. */
  is_read_replica: z.boolean().nullable(),
  /** The host looks like a connection pooler; replication needs a direct connection. */
  pooler_host: z.boolean(),
  /** The direct host to use instead of the pooler, when the provider's pattern is known. */
  suggested_direct_host: z.string().nullable(),
  server_version_num: z.number().int().nullable(),
  /** The user and database named in the URL, for the fix steps. */
  user: z.string().nullable(),
  database: z.string().nullable(),
})
export type ValidationDiagnostics = z.infer<typeof validationDiagnosticsSchema>

export const databaseValidationSchema = z.object({
  has_replication_permissions: z.boolean(),
  has_logical_wal: z.boolean(),
  can_connect: z.boolean(),
  can_connect_without_replication: z.boolean(),
  has_create_privilege: z.boolean(),
  connection_error: z.string().optional(),
  diagnostics: validationDiagnosticsSchema.optional(),
})
export type DatabaseValidation = z.infer<typeof databaseValidationSchema>

/** Nothing could be checked: every flag false, with the reason. */
export const unreachableValidation = (
  connection_error: string,
): DatabaseValidation => ({
  has_replication_permissions: false,
  has_logical_wal: false,
  can_connect: false,
  can_connect_without_replication: false,
  has_create_privilege: false,
  connection_error,
})

/** Ready for the sync engine: every one of these holds. */
export const isReady = (v: DatabaseValidation): boolean =>
  v.has_replication_permissions &&
  v.has_logical_wal &&
  v.can_connect &&
  v.has_create_privilege
