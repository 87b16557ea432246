// Sources as the API and the dashboard speak of them: regions, the create,
// delete and restart calls, and the stable set of event names the engine logs.
import { z } from 'zod'
import {
  INSTANCE_MAX_LENGTH,
  NAME_MAX_LENGTH,
  SOURCE_TAG_MAX_LENGTH,
} from './constants.ts'
import { idSchema } from './entities.ts'
import { databaseUrlSchema } from './validation.ts'

export const REGIONS = [
  { id: 'us-east-1', label: 'US East (N. Virginia)', selectable: true },
  { id: 'eu-west-1', label: 'EU West (Ireland)', selectable: true },
  { id: 'ca-west-1', label: 'CA West (Canada)', selectable: false },
] as const

export const SELECTABLE_REGIONS = ['us-east-1', 'eu-west-1'] as const
export type Region = (typeof SELECTABLE_REGIONS)[number]
export const regionSchema = z.enum(SELECTABLE_REGIONS)

export function regionLabel(id: string): string {
  return REGIONS.find((region) => region.id === id)?.label ?? id
}

/**
 * A source's name, optional. Trimmed; an empty or blank name, or null, means no name,
 * so the dashboard shows the source's id instead.
 */
export const sourceNameSchema = z
  .string()
  .trim()
  .max(NAME_MAX_LENGTH, `Name must be at most ${NAME_MAX_LENGTH} characters`)
  .nullable()
  .transform((name) => name || null)

/** What a project or environment may hold; the same pattern bounds the columns (migration 0017). */
const SOURCE_TAG_PATTERN = /^[A-Za-z0-9._/-]*$/

/**
 * A source's project or environment (Electric Cloud's workspace > project > environment >
 * source, a team being the workspace), optional. Trimmed; empty, blank or null means none.
 * A short label that reads well in a chip, a filter and a CLI's flag: letters, digits and
 * `-`, `_`, `.`, `/`, at most SOURCE_TAG_MAX_LENGTH characters.
 */
const sourceTagSchema = (label: string) =>
  z
    .string()
    .trim()
    .max(
      SOURCE_TAG_MAX_LENGTH,
      `${label} must be at most ${SOURCE_TAG_MAX_LENGTH} characters`,
    )
    .regex(
      SOURCE_TAG_PATTERN,
      `${label} may hold only letters, digits and - _ . /`,
    )
    .nullable()
    .transform((value) => value || null)

export const sourceProjectSchema = sourceTagSchema('Project')
export const sourceEnvironmentSchema = sourceTagSchema('Environment')

/** PUT /api/v1/sources (query `skip_validation=true` skips the readiness check). */
export const createSourceRequestSchema = z.object({
  /**
   * Name, project and environment are kept only for a new source: a database already
   * registered keeps its own.
   */
  name: sourceNameSchema.optional(),
  project: sourceProjectSchema.optional(),
  environment: sourceEnvironmentSchema.optional(),
  region: regionSchema,
  team_id: idSchema,
  database_url: databaseUrlSchema.trim().min(1, 'A database URL is required'),
  /** Sent by existing API clients; Sluice gives it no meaning, so it is accepted, not stored. */
  instance: z
    .string()
    .max(
      INSTANCE_MAX_LENGTH,
      `instance must be at most ${INSTANCE_MAX_LENGTH} characters`,
    )
    .optional(),
})
export type CreateSourceRequest = z.input<typeof createSourceRequestSchema>

/** The API's view of a source's state: the three values API clients know. */
const apiSourceStatuses = ['error', 'pending', 'active'] as const
export type ApiSourceStatus = (typeof apiSourceStatuses)[number]

/**
 * 201 for a new source, 200 when the same database is already registered by that team in that
 * region (then `id` and `source_secret` are the existing source's, `message` says so, and there
 * is no `txid`: nothing was written). `txid`: the transaction that wrote the row, so the
 * dashboard waits until it has synced.
 */
export const createSourceResponseSchema = z.object({
  id: idSchema,
  source_secret: z.string(),
  status: z.enum(apiSourceStatuses),
  message: z.string().optional(),
  txid: z.number().int().optional(),
})
export type CreateSourceResponse = z.infer<typeof createSourceResponseSchema>

/** POST /api/v1/sources/{id}/restart */
export const restartSourceRequestSchema = z.object({
  clear_cache: z.boolean().default(false),
})

/**
 * PATCH /api/v1/sources/{id}: changes a source's name, project or environment, each only when
 * sent (null or empty clears it); a body sending none of them is refused. It answers the three
 * as stored, so the dashboard waits for exactly those to sync.
 */
export const updateSourceRequestSchema = z
  .object({
    name: sourceNameSchema.optional(),
    project: sourceProjectSchema.optional(),
    environment: sourceEnvironmentSchema.optional(),
  })
  .refine(
    (body) =>
      body.name !== undefined ||
      body.project !== undefined ||
      body.environment !== undefined,
    'Send at least one of name, project and environment',
  )
export type UpdateSourceRequest = z.input<typeof updateSourceRequestSchema>

/** The columns PATCH may change: a fixed list, so a body's keys never reach SQL. */
export const SOURCE_LABEL_COLUMNS = ['name', 'project', 'environment'] as const
export type SourceLabels = Record<
  (typeof SOURCE_LABEL_COLUMNS)[number],
  string | null
>

export const updateSourceResponseSchema = z.object({
  id: idSchema,
  name: z.string().nullable(),
  project: z.string().nullable(),
  environment: z.string().nullable(),
  txid: z.number().int(),
})

/** POST /:id/rotate-secret: the new secret, and until when the one before still works. */
export const rotateSecretResponseSchema = z.object({
  source_secret: z.string(),
  previous_valid_until: z.string(),
  txid: z.number().int(),
})

/** DELETE and restart answer the id and the transaction of their change. */
export const sourceChangeResponseSchema = z.object({
  id: idSchema,
  txid: z.number().int(),
})

/** A shape's handle as the engine makes them (`<hash>-<time><random>`), in a route's path. */
export const shapeHandleSchema = z
  .string()
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/)

/** DELETE /api/v1/sources/{id}/shapes/{handle}: the shape rotated, its row's delete. */
export const shapeDeletedResponseSchema = z.object({
  id: idSchema,
  handle: z.string(),
  txid: z.number().int(),
})

export const ALREADY_REGISTERED_MESSAGE =
  'This source is already registered in this region.'

/**
 * Every event name a source's log can hold. Stable: dashboards and users' alerts match on them.
 * `event_details` is always an object; the keys each event carries are listed beside it.
 */
export const SOURCE_EVENTS = {
  /** The API registered the source. { region, database } (host:port/name, no credentials) */
  created: 'source_created',
  /** The engine created the publication and the slot. { slot, publication } */
  slotCreated: 'replication_slot_created',
  /** The slot was missing or lost and was made anew; shapes refetch. { slot, reason } */
  slotRecreated: 'replication_slot_recreated',
  /**
   * Sluice changed something on the database for replication (a table's REPLICA IDENTITY FULL,
   * a table added to its publication, the publication's settings). { statements } (the SQL run)
   */
  databaseAltered: 'database_altered',
  /** Streaming changes. { slot } */
  active: 'source_active',
  /** Connection lost; retrying with backoff. { reason } */
  reconnecting: 'source_reconnecting',
  /** A problem no retry fixes (rights, wal_level, slot). { reason } */
  error: 'source_error',
  /** Every shape of the source was rotated. { shapes } */
  cacheCleared: 'cache_cleared',
  /** Replication was restarted without clearing the cache. {} */
  restarted: 'source_restarted',
  /** The user deleted the source; the engine is removing its slot. {} */
  deleteRequested: 'delete_requested',
  /** Removing the slot and publication failed. { reason } */
  deleteFailed: 'delete_failed',
  /** The slot keeps more WAL than is healthy. { wal_status, wal_retained_bytes } */
  healthWarning: 'replication_health_warning',
  /** A claimable source was claimed into a team. { team_id, claimed_by } */
  claimed: 'source_claimed',
  /** An unclaimed claimable source expired; the engine is removing its slot. { expired_at } */
  claimExpired: 'claim_expired',
  /** A new secret; the one before keeps working until then. { previous_valid_until } */
  secretRotated: 'secret_rotated',
  /** The previous secret's grace was ended early: it no longer opens the source. {} */
  secretGraceEnded: 'previous_secret_ended',
  /**
   * Shapes were rotated and their clients refetch (the invalidation log has each one, with the
   * clients that came back), one event per cause at a time. { cause, shapes } (cause as in
   * INVALIDATION_CAUSES)
   */
  shapesInvalidated: 'shapes_invalidated',
} as const
export type SourceEventName = (typeof SOURCE_EVENTS)[keyof typeof SOURCE_EVENTS]

/** Why a shape was rotated (the invalidation log, GET /api/v1/sources/{id}/invalidations). */
export const INVALIDATION_CAUSES = [
  'clear_cache',
  'schema_change',
  'slot_lost',
  'deleted',
  'evicted',
  'dependency',
] as const
export type InvalidationCause = (typeof INVALIDATION_CAUSES)[number]
