// The store's file system: PGlite's IndexedDB one, writing back less often.
//
// PGlite keeps Postgres's files in memory and writes them back to IndexedDB after every
// statement, reads included; each write-back compares every file in memory with every entry
// stored, on the worker thread that also answers queries. Statements arriving within
// WRITE_BACK_DELAY_MS share one write-back, and the first waits longer: Postgres's start-up,
// the migrations check and the first screen's reads change nothing that needs keeping, and
// they are what a visit waits for. What a closed tab can lose grows from "the statements of
// the last moment" to that long; a write-back is one IndexedDB transaction, so the store is
// always a consistent earlier state, and the sync fetches what is missing again.
import { IdbFs } from '@electric-sql/pglite'

const WRITE_BACK_DELAY_MS = 200
const FIRST_WRITE_BACK_DELAY_MS = 1_000

export class StoreFs extends IdbFs {
  #next: Promise<void> | null = null
  #delay = FIRST_WRITE_BACK_DELAY_MS

  override syncToFs(relaxedDurability?: boolean): Promise<void> {
    this.#next ??= new Promise((resolve) =>
      setTimeout(resolve, this.#delay),
    ).then(() => {
      this.#next = null
      this.#delay = WRITE_BACK_DELAY_MS
      return super.syncToFs(relaxedDurability)
    })
    return this.#next
  }
}
