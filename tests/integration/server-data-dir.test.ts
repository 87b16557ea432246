// The server's DATA_DIR holds the root secret and the control plane's shape logs (its sources'
// settings): it is its own user's alone. One left open to others (by an older version, or by
// a copy) is made private at start, said once in the log (and once for the engine's own dir);
// new files are made private too.
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { freePort } from '../../src/server/platform/db/embedded-postgres.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startServer, waitUntilUp } from '../support/server-process.ts'
import { dropLeftSlots, stopNode, type Node } from '../support/servers.ts'

let control: TestDatabase
let server: Node | undefined
const root = mkdtempSync(join(tmpdir(), 'sluice-data-dir-'))
const dataDir = join(root, 'data')

beforeAll(async () => {
  control = await createTestDatabase()
})

afterAll(async () => {
  await stopNode(server)
  await dropLeftSlots([control.name])
  await control?.drop()
  rmSync(root, { recursive: true, force: true })
})

/** Every entry under `path` not 0700 (a directory) or 0600 (a file), as `path mode`. */
function notPrivate(path: string): string[] {
  const stat = lstatSync(path)
  const mode = stat.mode & 0o777
  const here =
    mode === (stat.isDirectory() ? 0o700 : 0o600)
      ? []
      : [`${path} ${mode.toString(8)}`]
  if (!stat.isDirectory()) return here
  return [
    ...here,
    ...readdirSync(path).flatMap((name) => notPrivate(join(path, name))),
  ]
}

it('makes a DATA_DIR open to others private at start, says so once, and keeps new files private', async () => {
  // As an older version left it: the directories 0755, the files 0644.
  mkdirSync(join(dataDir, 'engine'), { recursive: true })
  chmodSync(dataDir, 0o755)
  chmodSync(join(dataDir, 'engine'), 0o755)
  writeFileSync(join(dataDir, 'server-origin'), 'http://localhost:1\n', {
    mode: 0o644,
  })
  writeFileSync(join(dataDir, 'engine', 'left-over'), 'rows', { mode: 0o644 })

  const port = await freePort()
  const base = `http://localhost:${port}`
  server = {
    ...startServer({
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: control.url,
    }),
    base,
    instanceId: 'data-dir',
  }
  await waitUntilUp(server, `${base}/api/public/health`)

  // The secret generated, the origin recorded and the engine's directories: all private.
  expect(notPrivate(dataDir)).toEqual([])
  const notices = server
    .output()
    .split('\n')
    .filter((line) => line.includes('made private'))
  // Once for DATA_DIR (the origin file), once for the engine's own dir (the left-over file).
  expect(notices).toEqual([
    expect.stringContaining(`data dir ${dataDir}: 2 entries`),
    expect.stringContaining(`data dir ${join(dataDir, 'engine')}: 2 entries`),
  ])
}, 90_000)

it('as root, leaves the traverse bit a Postgres of DATA_DIR/postgres needs, whoever started it', async () => {
  // The e2e harness starts that Postgres itself and passes its URL: closed to it, the cluster
  // (run as `postgres`) lost its own lock file and shut down mid-run.
  await stopNode(server)
  const shared = join(root, 'shared')
  mkdirSync(join(shared, 'postgres'), { recursive: true })
  chmodSync(shared, 0o755)
  const port = await freePort()
  const base = `http://localhost:${port}`
  server = {
    ...startServer({
      PORT: String(port),
      DATA_DIR: shared,
      DATABASE_URL: control.url,
    }),
    base,
    instanceId: 'data-dir-postgres',
  }
  await waitUntilUp(server, `${base}/api/public/health`)
  const root0 = process.getuid?.() === 0
  expect(lstatSync(shared).mode & 0o777).toBe(root0 ? 0o701 : 0o700)
}, 90_000)
