// What the Shape Inspector says of what it read: a message's first line, a timeline point's
// label, and the rows that changed between two offsets' reads. Pure, for unit tests.
import type { z } from 'zod'
import type {
  shapeMessagesResponseSchema,
  shapeTimelineResponseSchema,
} from '../../../../shared/shape-messages.ts'

export type Message = z.infer<
  typeof shapeMessagesResponseSchema
>['messages'][number]
type Point = z.infer<typeof shapeTimelineResponseSchema>['points'][number]

/** "insert "public"."items"/"1"", "up-to-date", "move-out": the message's first line. */
export function messageSummary(message: Message): string {
  const { operation, control, event } = message.headers
  if (typeof operation === 'string')
    return message.key === undefined ? operation : `${operation} ${message.key}`
  if (typeof control === 'string') return control
  if (typeof event === 'string') return event
  return 'message'
}

const CAUSES: Record<string, string> = {
  clear_cache: 'cache cleared',
  schema_change: 'schema changed',
  slot_lost: 'slot lost',
  deleted: 'shape deleted',
  evicted: 'evicted',
  dependency: 'a dependency changed',
}

export function pointLabel(point: Point): string {
  switch (point.kind) {
    case 'start':
      return point.rotation
        ? `Start (rotated: ${CAUSES[point.rotation.cause] ?? point.rotation.cause})`
        : 'Start'
    case 'snapshot_end':
      return `Snapshot end · ${point.rows} ${point.rows === 1 ? 'row' : 'rows'}`
    case 'transaction':
      return `Transaction ${point.txids[0] ?? point.lsn} · ${point.messages} ${
        point.messages === 1 ? 'message' : 'messages'
      }`
  }
}

/** One row's changes between two offsets, in order. */
export type RowChange = { key: string; operations: string[] }

/**
 * The rows whose changes a client reading from the earlier offset receives and one reading
 * from the later does not: the later read is the tail of the earlier (one log), so what lies
 * between is the earlier read less that tail. Either order of the two offsets answers alike.
 */
export function changesBetween(a: Message[], b: Message[]): RowChange[] {
  const [earlier, later] = a.length >= b.length ? [a, b] : [b, a]
  const rows = new Map<string, string[]>()
  for (const message of earlier.slice(0, earlier.length - later.length)) {
    const operation = message.headers.operation
    if (message.key === undefined || typeof operation !== 'string') continue
    rows.set(message.key, [...(rows.get(message.key) ?? []), operation])
  }
  return Array.from(rows, ([key, operations]) => ({ key, operations }))
}
