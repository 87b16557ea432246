// A source's live-shapes stream (/v1/source-shapes) answers 404 once its source row is gone,
// and the browser logs every 404 as a console error. Rows leave this shape all the time (a
// shape rotated or deleted), so unlike the event log's (event-log-fetch.ts) its answers cannot
// say the source is going. The store can, and each request asks it first:
// - while the source is being removed (its deletion synced, neither done nor failed), the
//   request waits for the row to change again (the removal failed) or, at most,
//   REMOVAL_HOLD_MS; once the row is gone the sync stops following the source;
// - with no source row, it asks nothing more and waits for the sync to stop it;
// - after an answer that deleted rows, it first waits up to DELETES_SETTLE_MS for the row to
//   go: a forgotten source's shapes go in the same transaction as its row, whose delete comes
//   on another stream.
// A source removed faster than the store hears of it can still meet a 404; sync.ts handles it.
import type { PGliteInterface } from '@electric-sql/pglite'
import type { LiveNamespace } from '@electric-sql/pglite/live'
import { whenTrue } from '../shared/await-txid.ts'
import { REMOVAL_HOLD_MS, untilAborted } from './event-log-fetch.ts'

/** Long enough for the other stream's answer of the same transaction to be applied. */
const DELETES_SETTLE_MS = 1_000

export type SourceStatus =
  | { kind: 'gone' }
  | { kind: 'present' }
  /** `txid`: of the row's last synced write (null: a snapshot's row). */
  | { kind: 'removing'; txid: number | null }

/** What the store knows of the stream's source. */
export type SourceInStore = {
  status(): Promise<SourceStatus>
  /** Resolves once the row has a write newer than `txid`, or after REMOVAL_HOLD_MS. */
  changedAfter(txid: number | null): Promise<unknown>
  /** Resolves true once the row is gone, false after `ms`. */
  goneWithin(ms: number): Promise<boolean>
}

/** Wraps a source's live-shapes fetch so that it never asks for a source the store saw go. */
export function liveShapesFetch(
  fetchClient: typeof fetch,
  source: SourceInStore,
): typeof fetch {
  let deleted = false
  return async (input, init) => {
    const aborted = untilAborted(init?.signal)
    // Raced below, and never awaited once the request is made: its rejection is no error.
    aborted.catch(() => {})
    if (deleted) {
      deleted = false
      if (await Promise.race([source.goneWithin(DELETES_SETTLE_MS), aborted]))
        return aborted
    }
    let status = await source.status()
    if (status.kind === 'removing') {
      await Promise.race([source.changedAfter(status.txid), aborted])
      status = await source.status()
    }
    if (status.kind === 'gone') return aborted
    const response = await fetchClient(input, init)
    if (response.ok) deleted = await deletesRows(response.clone())
    return response
  }
}

type Store = Pick<PGliteInterface, 'query'> & { live: LiveNamespace }

// A row whose deletion has synced and whose removal has not failed (await-txid.ts says the same
// of a source being removed).
const STATUS = `
  select case when deleted_at is not null and state not in ('error', 'delete_failed')
              then 'removing' else 'present' end as kind,
         (select max(t) from unnest(synced_txids) t)::float8 as txid
    from sources where id = $1`

/** The store's answers about `sourceId`. */
export function sourceInStore(store: Store, sourceId: string): SourceInStore {
  return {
    async status() {
      const { rows } = await store.query<{
        kind: 'present' | 'removing'
        txid: number | null
      }>(STATUS, [sourceId])
      const row = rows[0]
      if (!row) return { kind: 'gone' }
      return row.kind === 'removing'
        ? { kind: 'removing', txid: row.txid }
        : { kind: 'present' }
    },
    changedAfter: (txid) =>
      whenTrue(
        store,
        `select exists (select 1 from sources, unnest(synced_txids) t
                         where id = $1 and t > $2) as ok`,
        [sourceId, txid ?? Number.MAX_SAFE_INTEGER],
        REMOVAL_HOLD_MS,
      ),
    goneWithin: (ms) =>
      whenTrue(
        store,
        'select not exists (select 1 from sources where id = $1) as ok',
        [sourceId],
        ms,
      ),
  }
}

async function deletesRows(response: Response): Promise<boolean> {
  try {
    const text = await response.text()
    // Most answers hold none: skip parsing them twice.
    if (!text.includes('"delete"')) return false
    const parsed: unknown = JSON.parse(text)
    return (
      Array.isArray(parsed) &&
      parsed.some(
        (m: { headers?: { operation?: unknown } }) =>
          m.headers?.operation === 'delete',
      )
    )
  } catch {
    return false
  }
}
