// The spill file of a transaction too large for memory: changes come back in order, in chunks
// of the size asked, with their relations; a file cut inside a record is an error, and a
// discarded spill leaves no file.
import {
  existsSync,
  mkdtempSync,
  rmSync,
  truncateSync,
  statSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { readSpill, SpillWriter } from '../../src/engine/replication/spill.ts'
import type { Change, Relation } from '../../src/engine/replication/types.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0))
    rmSync(dir, { recursive: true, force: true })
})
function spillPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-spill-'))
  dirs.push(dir)
  return join(dir, 'tx.spill')
}

const relation = (id: number, name: string): Relation => ({
  id,
  schema: 'public',
  name,
  replicaIdentity: 'd',
  columns: [
    { name: 'id', typeOid: 23, typeMod: -1, isKey: true },
    { name: 'body', typeOid: 25, typeMod: -1, isKey: false },
  ],
})
const items = relation(1, 'items')
const notes = relation(2, 'notes')

function changes(count: number): Change[] {
  const out: Change[] = []
  for (let i = 0; i < count; i++) {
    const row = { id: String(i), body: i % 7 === 0 ? null : `row ${i} ✓` }
    if (i % 5 === 1)
      out.push({ kind: 'update', relation: notes, oldRow: null, newRow: row })
    else if (i % 5 === 2)
      out.push({ kind: 'delete', relation: items, oldRow: { id: String(i) } })
    else if (i === 500)
      out.push({ kind: 'truncate', relations: [items, notes] })
    else out.push({ kind: 'insert', relation: items, newRow: row })
  }
  return out
}

async function readAll(path: string, size: number): Promise<Change[][]> {
  const chunks: Change[][] = []
  for await (const chunk of readSpill(path, size)) chunks.push(chunk)
  return chunks
}

it('gives the changes back in order, in chunks of the size asked', async () => {
  const path = spillPath()
  const writer = new SpillWriter(path)
  // Several writes of a megabyte, and a tail.
  const written = changes(60_000)
  for (const change of written) writer.add(change)
  const spilled = writer.commit()
  expect(spilled.count).toBe(60_000)
  const chunks: Change[][] = []
  for await (const chunk of spilled.chunks(7_000)) chunks.push(chunk)
  expect(chunks.map((c) => c.length)).toEqual([
    ...Array<number>(8).fill(7_000),
    4_000,
  ])
  expect(chunks.flat()).toEqual(written)
  // One relation object per relation, as the assembler's cache gives them.
  const relations = new Set(
    chunks
      .flat()
      .flatMap((c) => (c.kind === 'truncate' ? c.relations : [c.relation])),
  )
  expect(relations.size).toBe(2)
  await spilled.remove()
  expect(existsSync(path)).toBe(false)
})

it('holds at most a bounded backlog once drained', async () => {
  const writer = new SpillWriter(spillPath())
  // Enough changes to pass the bound several times; one assertion at the end, not one per
  // change (200,000 of them took over 5 s on a loaded 2-core machine).
  let most = 0
  let drains = 0
  for (const change of changes(100_000)) {
    writer.add(change)
    most = Math.max(most, writer.backlog)
    if (writer.backlog > 2 * 1024 * 1024) {
      drains++
      await writer.drained(1024 * 1024)
    }
  }
  expect(drains).toBeGreaterThan(1)
  expect(most).toBeLessThanOrEqual(2 * 1024 * 1024 + 200)
  const spilled = writer.commit()
  expect((await readAll(spilled.path, 100_000)).flat()).toHaveLength(100_000)
})

it('refuses a file cut inside a record', async () => {
  const path = spillPath()
  const writer = new SpillWriter(path)
  for (const change of changes(100)) writer.add(change)
  await writer.finish()
  truncateSync(path, statSync(path).size - 3)
  await expect(readAll(path, 1_000)).rejects.toThrow(/ends inside a record/)
})

it('leaves no file when discarded', async () => {
  const path = spillPath()
  const writer = new SpillWriter(path)
  for (const change of changes(30_000)) writer.add(change)
  await writer.discard()
  expect(existsSync(path)).toBe(false)
  expect(() => writer.add(changes(1)[0] as Change)).toThrow(/discarded/)
})
