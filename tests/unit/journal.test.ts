// The journal: one fdatasync makes every busy log's appends durable. A crash that loses what
// the logs' own files had not synced loses nothing: replay writes the frames back before the
// logs reopen. A torn last frame is ignored, a rotated log's frames are dropped, a checkpoint
// syncs the logs and deletes their segment, and a journal that cannot be written leaves each
// log to be synced on its own.
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { DurabilityLoop } from '../../src/engine/durability.ts'
import { Journal, type Frame } from '../../src/engine/storage/journal.ts'
import { FileShapeLog } from '../../src/engine/storage/log-store.ts'
import { BEFORE_ALL } from '../../src/engine/storage/offset.ts'
import type { Shape } from '../../src/engine/shapes/shape.ts'
import { messageText } from '../../src/engine/http/answer-body.ts'

const roots: string[] = []
afterEach(() => {
  for (const root of roots.splice(0))
    rmSync(root, { recursive: true, force: true })
})

function setup() {
  const root = mkdtempSync(join(tmpdir(), 'sluice-journal-'))
  roots.push(root)
  const shapesDir = join(root, 'shapes')
  mkdirSync(shapesDir)
  const journalDir = join(root, 'journal')
  return { root, shapesDir, journalDir }
}

/** Transaction `tx`: `n` inserts, the last one closing it. */
function appendTx(log: FileShapeLog, tx: number, n = 3) {
  log.append(
    Array.from({ length: n }, (_, op) => ({
      offset: { tx: BigInt(tx), op },
      json: JSON.stringify({
        key: `${tx}/${op}`,
        value: { text: 'ünïcode ✓' },
        headers: { operation: 'insert' },
      }),
      last: op === n - 1,
    })),
    n,
  )
  log.publish()
}

/** What a flush does with the logs (durability.ts): take what they gained, commit it. */
async function flush(journal: Journal, logs: FileShapeLog[]) {
  const frames: Frame[] = []
  for (const log of logs) {
    const take = log.takeJournal()
    expect(take).not.toBe('sync')
    if (take && take !== 'sync') frames.push({ log, ...take })
  }
  await journal.commit(frames)
}

const keys = (log: FileShapeLog) =>
  log
    .read(BEFORE_ALL, 1 << 30)
    .messages.map((m) => (JSON.parse(messageText(m)) as { key: string }).key)

it('restores appends the log files lost, from the journal alone', async () => {
  const { shapesDir, journalDir } = setup()
  const a = FileShapeLog.create(join(shapesDir, 'a'))
  const b = FileShapeLog.create(join(shapesDir, 'b'))
  const journal = new Journal(journalDir, shapesDir)
  appendTx(a, 1)
  appendTx(b, 1)
  await flush(journal, [a, b])
  appendTx(a, 2)
  await flush(journal, [a, b])
  const expectedA = keys(a)
  const expectedB = keys(b)
  await journal.close()
  a.close()
  b.close()
  // A crash before the logs' own files were written or synced: the files hold nothing.
  truncateSync(a.path, 0)
  truncateSync(b.path, 0)

  const again = new Journal(journalDir, shapesDir)
  expect(await again.replay()).toBe(3)
  expect(readdirSync(journalDir)).toEqual([])
  const reopenedA = FileShapeLog.open(join(shapesDir, 'a'))
  const reopenedB = FileShapeLog.open(join(shapesDir, 'b'))
  expect(keys(reopenedA)).toEqual(expectedA)
  expect(keys(reopenedB)).toEqual(expectedB)
  expect(reopenedA.rows).toBe(6)
  reopenedA.close()
  reopenedB.close()
})

it('ignores a torn last frame and the frames of a rotated log', async () => {
  const { shapesDir, journalDir } = setup()
  const kept = FileShapeLog.create(join(shapesDir, 'kept'))
  const rotated = FileShapeLog.create(join(shapesDir, 'rotated'))
  const journal = new Journal(journalDir, shapesDir)
  appendTx(kept, 1)
  appendTx(rotated, 1)
  await flush(journal, [kept, rotated])
  const expected = keys(kept)
  appendTx(kept, 2)
  await flush(journal, [kept])
  await journal.close()
  kept.close()
  rotated.destroy()
  // The second commit was torn: only part of its frame reached the disk.
  const [segment] = readdirSync(journalDir)
  const path = join(journalDir, segment as string)
  const whole = readFileSync(path)
  writeFileSync(path, whole.subarray(0, whole.length - 20))
  truncateSync(kept.path, 0)

  expect(await new Journal(journalDir, shapesDir).replay()).toBe(2)
  expect(existsSync(join(shapesDir, 'rotated'))).toBe(false)
  const reopened = FileShapeLog.open(join(shapesDir, 'kept'))
  expect(keys(reopened)).toEqual(expected)
  reopened.close()
})

it('a checkpoint syncs the logs of a full segment and deletes it', async () => {
  const { shapesDir, journalDir } = setup()
  const log = FileShapeLog.create(join(shapesDir, 'a'))
  // Every segment is full after one commit.
  const journal = new Journal(journalDir, shapesDir, {
    everyMs: 60_000,
    afterBytes: 1,
  })
  appendTx(log, 1)
  await flush(journal, [log])
  await journal.checkpoint()
  expect(readdirSync(journalDir)).toEqual([])
  // Synced on file itself, not only in the journal.
  expect(readFileSync(log.path).length).toBe(log.bytes)
  appendTx(log, 2)
  await flush(journal, [log])
  await journal.checkpoint()
  expect(readdirSync(journalDir)).toEqual([])
  expect(readFileSync(log.path).length).toBe(log.bytes)
  await journal.close()
  log.close()
})

it('a log that gained more than the journal takes is synced on its own', async () => {
  const { shapesDir } = setup()
  const log = FileShapeLog.create(join(shapesDir, 'a'))
  for (let tx = 1; tx <= 200; tx++) appendTx(log, tx, 20)
  expect(log.takeJournal()).toBe('sync')
  await log.syncTaken()
  expect(readFileSync(log.path).length).toBe(log.bytes)
  expect(log.takeJournal()).toBe(null)
  appendTx(log, 201)
  const take = log.takeJournal()
  expect(take).toMatchObject({ pos: readFileSync(log.path).length })
  log.close()
})

it('a segment that cannot be parsed from its start replays nothing and is still cleared', async () => {
  const { shapesDir, journalDir } = setup()
  mkdirSync(journalDir)
  appendFileSync(
    join(journalDir, '000000000000'),
    Buffer.from('not a frame at all'),
  )
  expect(await new Journal(journalDir, shapesDir).replay()).toBe(0)
  expect(readdirSync(journalDir)).toEqual([])
})

it('a journal that cannot be written: each log is synced on its own, and only then confirmed', async () => {
  const { root, shapesDir } = setup()
  // Its directory is a file: every commit fails, as on a full or broken disk.
  const blocked = join(root, 'not-a-dir')
  writeFileSync(blocked, '')
  const log = FileShapeLog.create(join(shapesDir, 'a'))
  const shape = { log } as unknown as Shape
  const durability = new DurabilityLoop(
    new Journal(blocked, shapesDir),
    () => true,
  )
  appendTx(log, 1)
  durability.processedEnd = 100n
  durability.touched(shape)
  await durability.flush()
  // Durable in the log file itself, then confirmed.
  expect(readFileSync(log.path).length).toBe(log.bytes)
  expect(durability.confirmable(100n)).toBe(100n)

  log.close()
})
