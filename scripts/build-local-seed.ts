// Builds the browser store's seed: an empty PGlite database with every client migration
// applied, dumped as a tarball the worker loads on a browser's first visit. Creating a database
// in the browser means running initdb in wasm (about 9 s here); loading the seed takes about 1 s.
import { PGlite } from '@electric-sql/pglite'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { pgliteTarget } from '../src/app/db/pglite-target.ts'
import { migrate } from '../src/shared/migrations.ts'

const MIGRATIONS = new URL('../migrations/client/', import.meta.url)
const OUT_DIR = new URL('../public/', import.meta.url)
export const SEED_FILE = 'local-store-seed.tar.gz'

const migrations = readdirSync(MIGRATIONS)
  .filter((name) => name.endsWith('.sql'))
  .map((name) => ({
    name,
    sql: readFileSync(new URL(name, MIGRATIONS), 'utf8'),
  }))

const pg = await PGlite.create()
await migrate(pgliteTarget(pg), migrations)
const seed = await pg.dumpDataDir('gzip')
await pg.close()
mkdirSync(OUT_DIR, { recursive: true })
writeFileSync(
  new URL(SEED_FILE, OUT_DIR),
  Buffer.from(await seed.arrayBuffer()),
)
console.log(
  `local store seed: ${(seed.size / 1024 / 1024).toFixed(1)} MB, ${migrations.length} migrations`,
)
