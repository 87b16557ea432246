// Starts the real server for the e2e run on a fresh data dir (its own embedded Postgres),
// and removes that dir when the server exits.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const dataDir = mkdtempSync(join(tmpdir(), 'sluice-e2e-'))
// Embedded Postgres runs as the postgres user when we are root: it must reach the dir.
chmodSync(dataDir, 0o755)
process.env.DATA_DIR = dataDir
process.env.HOST ??= 'localhost'
process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }))

await import('../../src/server/index.ts')
