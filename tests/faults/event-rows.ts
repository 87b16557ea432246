// What the dashboard faults (F2, F9, F10, F11) count: one source's event log. The source row
// and its events are written straight into the control plane, as the runtime writes them; a
// dashboard showing the source syncs them into its store. The same query reads both sides.
import { randomUUID } from 'node:crypto'
import type { Db } from '../../src/server/platform/db/database.ts'
import {
  compareDigests,
  digest,
  insertLoad,
  type Truth,
  type WriteLoad,
} from './support.ts'

const COLUMNS = ['id', 'event_name', 'event_details', 'instance_id']

/** One source's events as compared; runs unchanged in the control plane and in PGlite. */
export const EVENTS_SQL = `select id::text as id, event_name, event_details::text as event_details,
  instance_id from source_event_logs where source_id = $1`

/** A source of `teamId` the dashboard can show. Its database is never there: only its rows count. */
export async function addWatchedSource(
  db: Db,
  teamId: string,
  name: string,
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into sources (team_id, name, region, connection_url, source_secret)
     values ($1, $2, 'us-east-1', 'postgres://app@127.0.0.1:1/app', $3)
     returning id`,
    [teamId, name, `sec_${randomUUID().replaceAll('-', '')}`],
  )
  const id = rows[0]?.id
  if (!id) throw new Error('the source was not written')
  return id
}

export type EventLoad = WriteLoad & {
  /** How many of the load's rows the control plane holds (each written once). */
  landed(): Promise<number>
}

/**
 * Writes `fault_load` events for the source one at a time until stopped, riding out a control
 * plane that goes away: each event's id is fixed by its number, so a retried insert that had
 * landed is a unique violation, not a second row. `gapMs` paces it: a fault that lasts minutes
 * would otherwise pile up more rows than the page's event log is meant to show.
 */
export function eventLoad(db: Db, sourceId: string, gapMs = 0): EventLoad {
  // A uuid's first four groups, random per load; the last group is the event's number.
  const prefix = randomUUID().slice(0, 24)
  const load = insertLoad(async (n) => {
    await db.query(
      `insert into source_event_logs (id, source_id, event_name, event_details, instance_id)
       values ($1, $2, 'fault_load', $3, 'fault-harness')`,
      [
        `${prefix}${n.toString(16).padStart(12, '0')}`,
        sourceId,
        JSON.stringify({ n }),
      ],
    )
    if (gapMs) await new Promise((r) => setTimeout(r, gapMs))
  })
  return Object.assign(load, {
    async landed() {
      const { rows } = await db.query<{ n: number }>(
        `select count(*)::int as n from source_event_logs where id::text like $1`,
        [`${prefix}%`],
      )
      return rows[0]?.n ?? 0
    },
  })
}

/** The control plane's events of the source. */
export async function eventTruth(db: Db, sourceId: string): Promise<Truth> {
  const { rows } = await db.query<Record<string, unknown>>(EVENTS_SQL, [
    sourceId,
  ])
  return digest(rows, COLUMNS)
}

/** A store's rows of that query against the control plane's (duplicate ids count as repeats). */
export function compareEvents(
  rows: Record<string, unknown>[],
  truth: Truth,
): { lost: number; duplicated: number; same: boolean } {
  const client = digest(rows, COLUMNS)
  return compareDigests(client, truth, rows.length - client.byId.size)
}
