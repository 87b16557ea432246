// The Shape Inspector's read, GET /api/v1/sources/{id}/shapes/{handle}/messages: its query
// and its answer, for the server's route and the dashboard's inspector alike.
import { z } from 'zod'

const DEFAULT_MESSAGES_LIMIT = 100
export const MAX_MESSAGES_LIMIT = 1000

/**
 * `offset`: the protocol's (`-1`, `<tx>_<op>`), or a `next_offset` this route gave (which
 * may be `<offset>+<n>`: n messages into the answer at that offset); `-1` when absent. The
 * engine checks its form; here only its length.
 */
export const shapeMessagesQuerySchema = z.object({
  offset: z.string().min(1).max(60).default('-1'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_MESSAGES_LIMIT)
    .default(DEFAULT_MESSAGES_LIMIT),
})

/** One protocol message as the engine's /v1/shape sends it (a change or a control). */
const protocolMessageSchema = z.looseObject({
  key: z.string().optional(),
  value: z.record(z.string(), z.unknown()).optional(),
  old_value: z.record(z.string(), z.unknown()).optional(),
  headers: z.record(z.string(), z.unknown()),
})

/** One answer a client reading from the page's offset gets, whole: its size in bytes. */
const inspectedAnswerSchema = z.object({
  offset: z.string(),
  next_offset: z.string(),
  bytes: z.number().int(),
  messages: z.number().int(),
})

export const shapeMessagesResponseSchema = z.object({
  messages: z.array(protocolMessageSchema),
  /** What to ask next; null once the page ends with the up-to-date. */
  next_offset: z.string().nullable(),
  /** The protocol offset the client stands at after the page's whole answers. */
  offset: z.string(),
  answers: z.array(inspectedAnswerSchema),
})

/** A point of the shape's log a client can read from: `offset` reads it first. */
const timelinePointSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('start'),
    offset: z.literal('-1'),
    /** The rotation this handle replaced (ms since the epoch), or null. */
    rotation: z.object({ at: z.number(), cause: z.string() }).nullable(),
  }),
  z.object({
    kind: z.literal('snapshot_end'),
    offset: z.string(),
    rows: z.number().int(),
  }),
  z.object({
    kind: z.literal('transaction'),
    offset: z.string(),
    lsn: z.string(),
    txids: z.array(z.number()),
    messages: z.number().int(),
  }),
])

/** GET /api/v1/sources/{id}/shapes/{handle}/timeline: oldest first, at most 500 points. */
export const shapeTimelineResponseSchema = z.object({
  points: z.array(timelinePointSchema),
  /** More of the log lies past the last point than one request walks. */
  truncated: z.boolean(),
})
