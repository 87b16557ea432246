// The SQL that removes what a forgotten source left on the user's database. The slot's name is
// in the source's own slot events when the engine got that far; otherwise the query lists every
// slot Sluice made. (The engine's naming needs node:crypto, so the app does not recompute it.)
import type { SourceEventLog } from '../../../shared/entities.ts'
import { SOURCE_EVENTS } from '../../../shared/sources.ts'

export type SlotNames = { slot: string; publication: string | null }

const SLOT_EVENTS: string[] = [
  SOURCE_EVENTS.slotCreated,
  SOURCE_EVENTS.slotRecreated,
]
// Slot names allow only these; anything else is not pasted into SQL.
const NAME = /^[a-z0-9_]+$/

/** The slot (and publication) the engine last reported for this source; logs newest first. */
export function reportedSlot(
  logs: SourceEventLog[] | undefined,
): SlotNames | null {
  const event = logs?.find((log) => SLOT_EVENTS.includes(log.event_name))
  const { slot, publication } = event?.event_details ?? {}
  if (typeof slot !== 'string' || !NAME.test(slot)) return null
  return {
    slot,
    publication:
      typeof publication === 'string' && NAME.test(publication)
        ? publication
        : null,
  }
}

export function cleanupSql(names: SlotNames | null): string {
  if (!names)
    return [
      "select slot_name from pg_replication_slots where slot_name like 'sluice_%';",
      "-- then, for this source's slot:",
      "select pg_drop_replication_slot('<slot_name>');",
    ].join('\n')
  const lines = [`select pg_drop_replication_slot('${names.slot}');`]
  if (names.publication)
    lines.push(`drop publication if exists ${names.publication};`)
  return lines.join('\n')
}
