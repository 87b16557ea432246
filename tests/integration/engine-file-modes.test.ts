// Shape logs hold users' rows, so the engine keeps its data dir to its own user: every
// directory it makes is 0700 and every file 0600, whatever the umask. A data dir left looser
// (by an older version, or by a copy) is tightened at start, and the engine says so once.
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'
import { readShapeToEnd, type ShapePosition } from '../support/shape-reads.ts'
import { waitUntil } from '../support/wait.ts'

let source: TestDatabase
let engine: TestEngine | undefined
const root = mkdtempSync(join(tmpdir(), 'sluice-modes-'))
// Not made by the test: the engine creates it, so its own mode is under test too.
const dataDir = join(root, 'engine')
const ID = `modes_${process.pid}`

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(
    `create table items (id int primary key, body text);
     insert into items select i, 'secret ' || i from generate_series(1, 100) as i`,
  )
}, 60_000)

afterAll(async () => {
  await engine?.destroy()
  await source?.drop()
  rmSync(root, { recursive: true, force: true })
})

type Entry = { path: string; dir: boolean; mode: number }

function walk(path: string): Entry[] {
  const stat = lstatSync(path)
  const here = { path, dir: stat.isDirectory(), mode: stat.mode & 0o777 }
  if (!here.dir) return [here]
  return [here, ...readdirSync(path).flatMap((name) => walk(join(path, name)))]
}

/** Every entry not 0700 (a directory) or 0600 (a file), as `path mode`. */
const notPrivate = (entries: Entry[]) =>
  entries
    .filter((e) => e.mode !== (e.dir ? 0o700 : 0o600))
    .map((e) => `${e.path} ${e.mode.toString(8)}`)

const shapeUrl = (params: Record<string, string>) =>
  `${engine?.shapeUrl}?${new URLSearchParams(params)}`
let position: ShapePosition

it('makes its directories 0700 and its files 0600', async () => {
  engine = await startTestEngine(source.url, { dataDir, id: ID })
  position = await readShapeToEnd(
    shapeUrl,
    { table: 'items' },
    { offset: '-1' },
  )
  // A change written after the snapshot goes through the journal too.
  await source.db.query(`insert into items values (101, 'secret 101')`)
  const journal = join(dataDir, 'databases', ID, 'journal')
  await waitUntil('a journal segment', () => readdirSync(journal).length > 0)
  const entries = walk(dataDir)
  expect(entries.filter((e) => !e.dir).length).toBeGreaterThanOrEqual(3)
  expect(notPrivate(entries)).toEqual([])
})

it('tightens a data dir left readable by others at start, says so once, loses nothing', async () => {
  await engine?.stop()
  engine = undefined
  for (const entry of walk(dataDir))
    chmodSync(entry.path, entry.dir ? 0o755 : 0o644)
  const notices: string[] = []
  engine = await startTestEngine(source.url, {
    dataDir,
    id: ID,
    log: (line) => notices.push(line),
  })
  expect(notPrivate(walk(dataDir))).toEqual([])
  expect(notices).toHaveLength(1)
  expect(notices[0]).toContain(dataDir)
  expect(notices[0]).toContain('0700')
  // The same shape resumes where the client was: the logs were kept.
  const response = await fetch(shapeUrl({ table: 'items', ...position }))
  expect(response.status).toBe(200)
  await response.text()
})
