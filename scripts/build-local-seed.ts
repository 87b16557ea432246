// Builds the browser store's seed: an empty PGlite database with every client migration
// applied, dumped as a tarball the worker loads on a browser's first visit. Creating a database
// in the browser means running initdb in wasm (about 9 s here); loading the seed takes about 1 s.
import { PGlite } from '@electric-sql/pglite'
import { electricSync } from '@electric-sql/pglite-sync'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { pgliteTarget } from '../src/app/db/shared/pglite-target.ts'
import { migrate } from '../src/shared/migrations.ts'
import { fixHost, seedEpochMs } from './seed/fixed-host.ts'
import { tarball } from './seed/tarball.ts'

const MIGRATIONS = new URL('../migrations/client/', import.meta.url)
const OUT_DIR = new URL('../public/', import.meta.url)
export const SEED_FILE = 'local-store-seed.tar.gz'

const migrations = readdirSync(MIGRATIONS)
  .filter((name) => name.endsWith('.sql'))
  .map((name) => ({
    name,
    sql: readFileSync(new URL(name, MIGRATIONS), 'utf8'),
  }))

// The same migrations must make the same bytes, or every build would offer open tabs a new
// version: Postgres's clocks and randomness are fixed for this run.
const epochMs = seedEpochMs()
fixHost(epochMs)

// Every visit loads the whole data directory from IndexedDB before Postgres starts, so the
// seed is kept small: 1 MB WAL segments (not 16), no template databases (the store never
// creates a database), and little WAL kept. A tab never shuts Postgres down, so checkpoints
// come only when the WAL reaches max_wal_size: 4 MB keeps it short, and without recycling a
// checkpoint deletes the segments it no longer needs instead of keeping them for reuse.
// 39 MB in 1,002 files becomes about 9 MB in 400; every visit reads that much less.
const initial = await PGlite.create({ initDbStartParams: ['--wal-segsize=1'] })
for (const template of ['template0', 'template1']) {
  await initial.exec(`alter database ${template} is_template false`)
  await initial.exec(`drop database ${template}`)
}
await initial.exec(`alter system set min_wal_size = '2MB'`)
await initial.exec(`alter system set max_wal_size = '4MB'`)
await initial.exec(`alter system set wal_recycle = off`)
await initial.exec('checkpoint')
const trimmed = await initial.dumpDataDir('none')
await initial.close()

// Reopened so the WAL settings apply to the checkpoints that follow.
const pg = await PGlite.create({
  loadDataDir: trimmed,
  extensions: { electric: electricSync() },
})
await migrate(pgliteTarget(pg), migrations)
// pglite-sync's own metadata table, made by pglite-sync: on a first visit its creation (DDL on
// Postgres's not yet optimized code) was on the way to the first synced rows.
await pg.electric.initMetadataTables()
await pg.exec('checkpoint')
// Segments past the current one were made ahead for reuse (initdb recycles); Postgres creates
// a segment when it first needs it, so the seed leaves them out.
const { rows: ahead } = await pg.query<{ name: string }>(
  `select name from pg_ls_waldir()
    where name ~ '^[0-9A-F]{24}$' and name > pg_walfile_name(pg_current_wal_lsn())`,
)
const pgdata = (pg.Module.ENV as { PGDATA: string }).PGDATA
for (const { name } of ahead) pg.Module.FS.unlink(`${pgdata}/pg_wal/${name}`)
// Archived here rather than with pg.dumpDataDir, whose tar stamps every entry with the time.
const seed = tarball(pg.Module.FS, pgdata, epochMs)
await pg.close()
mkdirSync(OUT_DIR, { recursive: true })
writeFileSync(new URL(SEED_FILE, OUT_DIR), seed)
console.log(
  `local store seed: ${(seed.length / 1024 / 1024).toFixed(1)} MB, ${migrations.length} migrations`,
)
