// The tab's PGliteWorker, with its array types read in one message.
//
// Once connected, PGliteWorker reads which types have array forms (so it can parse and
// serialize arrays) with an ordinary query: about a dozen round trips to the worker, each
// waiting behind whatever the worker runs meanwhile (on a first visit, the sync landing the
// user's rows), and holding the tab's query lock throughout. Read as a direct request
// (direct-requests.ts) it is one message each way, and nothing of the tab waits behind it
// but the statements that need its answer.
import { types, type PGliteInterface } from '@electric-sql/pglite'
import { LeaderChangedError, PGliteWorker } from '@electric-sql/pglite/worker'
import { readOnce } from './direct-requests.ts'
import { lastingListens } from '../shared/lasting-listens.ts'

// PGlite's own query for the same pairs (element type, its array type).
export const ARRAY_TYPES = `
  select b.oid, b.typarray
  from pg_catalog.pg_type a
  left join pg_catalog.pg_type b on b.oid = a.typelem
  where a.typcategory = 'A'
  group by b.oid, b.typarray
  order by b.oid`

type ArrayType = { oid: number; typarray: number }
type Transaction = NonNullable<Parameters<PGliteWorker['listen']>[2]>
type Converters = Pick<PGliteInterface, 'serializers' | 'parsers'>

/** Each array type converts element by element, with its element type's converters. */
export function installArrayTypes(pg: Converters, rows: ArrayType[]): void {
  for (const { oid, typarray } of rows) {
    pg.serializers[typarray] = (value: unknown) =>
      types.arraySerializer(value, pg.serializers[oid], typarray)
    pg.parsers[typarray] = (text: string) =>
      types.arrayParser(text, pg.parsers[oid] as types.Parser, typarray)
  }
}

export class StoreClient extends PGliteWorker {
  #arrayTypes: Promise<void> | null = null

  // What this tab listens for. A live query listens for changes to its tables, but its LISTEN,
  // its view and its prepared statement live in the database of the worker that held it when
  // the query began. When that worker's tab closes and another worker is elected, none of them
  // is there, PGliteWorker does not repeat the LISTENs, and the query would never hear of a
  // change again (its screen frozen until a reload). So once this tab is connected to the
  // elected worker, every listener is called as if its channel had been notified: a live
  // query then refreshes, finds its statement missing and sets itself up anew (LISTEN
  // included) on the new holder, catching up on whatever changed meanwhile. A channel is never
  // UNLISTENed: the session is everyone's (lasting-listens.ts).
  #listens = lastingListens<Transaction>((channel, callback, tx) =>
    super.listen(channel, callback, tx),
  )
  #stopReviving = this.onLeaderChange(() => void this.#revive())

  override listen(
    channel: string,
    callback: (payload: string) => void,
    tx?: Transaction,
  ): Promise<(tx?: Transaction) => Promise<void>> {
    return this.#listens.listen(channel, callback, tx)
  }

  override async close(): Promise<void> {
    this.#stopReviving()
    await super.close()
  }

  async #revive(): Promise<void> {
    this.#listens.sessionChanged()
    await this.waitReady
    for (const listener of this.#listens.callbacks()) listener('')
  }

  /** Resolves once query results and parameters of array types convert as PGlite's would. */
  arrayTypesRead(): Promise<void> {
    return this._initArrayTypes()
  }

  // PGliteWorker calls this once connected, without waiting; refreshArrayTypes forces it.
  override _initArrayTypes({ force = false } = {}): Promise<void> {
    if (!this.#arrayTypes || force) {
      this.#arrayTypes = this.#readArrayTypes()
      // PGliteWorker's own call does not wait: a failure is the store's, reported to whoever
      // waits (store.ts), never an unhandled rejection.
      this.#arrayTypes.catch(() => {})
    }
    return this.#arrayTypes
  }

  // When the tab whose worker holds the database closes and another worker is elected,
  // PGliteWorker rejects the request then in flight with LeaderChangedError, but the steps of a
  // statement after it (the release of its lock, above all) go to the elected worker before it
  // listens to this tab (it does once its database is open): never answered, the statement
  // neither ended nor failed, and what waited on it waited for good (a tab's claim of the
  // store, and so the sync its worker, elected, was to start: fault F10). Here every statement
  // fails with LeaderChangedError once the holder changes, and its asker can ask again.
  override _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T> {
    return this.#untilLeaderChange(super._runExclusiveQuery(fn))
  }

  override _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.#untilLeaderChange(super._runExclusiveTransaction(fn))
  }

  #untilLeaderChange<T>(step: Promise<T>): Promise<T> {
    let stopListening = () => {}
    return new Promise<T>((resolve, reject) => {
      stopListening = this.onLeaderChange(() =>
        reject(new LeaderChangedError()),
      )
      step.then(resolve, reject)
    }).finally(() => stopListening())
  }

  async #readArrayTypes(): Promise<void> {
    try {
      const { rows } = await readOnce<ArrayType>(
        this as PGliteInterface,
        ARRAY_TYPES,
        [],
      )
      installArrayTypes(this, rows)
    } catch (error) {
      // Asked again by the next caller rather than failing every later query.
      this.#arrayTypes = null
      throw error
    }
  }
}
