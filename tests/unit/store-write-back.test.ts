// The store's write-backs under a write load (src/app/db/worker/store-write-back.ts): every one
// stores the files of one instant, so the Postgres a tab taking over opens from IndexedDB is
// whole: every transaction it shows is all there. Real PGlite; IndexedDB is fake-indexeddb
// (Node has none), which, like a browser's, answers each request in a later task.
import 'fake-indexeddb/auto'
import { PGlite } from '@electric-sql/pglite'
import { afterAll, describe, expect, it } from 'vitest'
import { StoreFs } from '../../src/app/db/worker/store-fs.ts'
import {
  mountPath,
  readStoredFiles,
  type StoredFile,
} from '../../src/app/db/worker/store-files.ts'

const opened: PGlite[] = []
afterAll(async () => {
  for (const pg of opened) await pg.close().catch(() => {})
})

async function open(dataDir: string, stored?: StoredFile[]) {
  const fs = new StoreFs(dataDir, stored ? Promise.resolve(stored) : undefined)
  const pg = await PGlite.create({ fs, relaxedDurability: true })
  opened.push(pg)
  return { pg, fs }
}

// The stored files as another data directory's, to open them beside the one still writing.
function asCopy(files: StoredFile[], from: string, to: string): StoredFile[] {
  return files.map(([path, entry]) => [
    mountPath(to) + path.slice(mountPath(from).length),
    entry,
  ])
}

describe('store write-backs', () => {
  it('store a whole state while statements run, every time', async () => {
    const { pg, fs } = await open('write-back')
    await pg.exec(`create table log (n int primary key, pad text);
      create table counter (n int not null); insert into counter values (0);`)
    let written = 0
    let writing = true
    // Each transaction adds a row and counts it: a stored state shows both or neither.
    const load = (async () => {
      while (writing) {
        written++
        await pg.exec(`begin; insert into log values (${written}, repeat('x', 200));
          update counter set n = ${written}; commit;`)
        // Checkpoints write the tables' pages and the control file: between them only the WAL
        // changes, and any mix of two moments' files would still recover whole.
        if (written % 7 === 0) await pg.exec('checkpoint')
        // Let the write-back's IndexedDB events in between transactions.
        await new Promise((resolve) => setImmediate(resolve))
      }
    })()
    const states: string[] = []
    for (let i = 0; i < 12; i++) {
      await fs.flush()
      const files = await readStoredFiles('write-back')
      const copy = await open(
        `copy-${i}`,
        asCopy(files!, 'write-back', `copy-${i}`),
      )
      const { rows } = await copy.pg.query<{
        rows: number
        counted: number
        top: number
      }>(
        `select count(*)::int as rows, (select n from counter) as counted,
                coalesce(max(n), 0) as top from log`,
      )
      const state = rows[0]!
      states.push(`${state.rows}/${state.counted}/${state.top}`)
      expect(state, `stored state ${i} (of ${written} written)`).toEqual({
        rows: state.counted,
        counted: state.counted,
        top: state.counted,
      })
      await copy.pg.close()
    }
    writing = false
    await load
    // The load ran on through the write-backs: they stored states of different moments.
    expect(new Set(states).size).toBeGreaterThan(6)
  }, 120_000)
})
