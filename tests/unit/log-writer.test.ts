// A shape log's writer: appends reach the file off the event loop, grouped, and read the same
// before they get there; a failed write (a full disk) refuses further appends and is never
// reported durable.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it, vi } from 'vitest'
import { LogWriter } from '../../src/engine/storage/log-writer.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0))
    rmSync(dir, { recursive: true, force: true })
})

function fileWriter() {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-writer-'))
  dirs.push(dir)
  const path = join(dir, 'log')
  return { path, writer: new LogWriter(path, 0) }
}

const lines = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `line ${from + i}\n`).join('')

it('reads appended bytes at once, from file and memory alike, and syncs them all', async () => {
  const { path, writer } = fileWriter()
  for (let i = 0; i < 50; i++) writer.append(Buffer.from(lines(i, i + 1)))
  const expected = lines(0, 50)
  expect(writer.end).toBe(Buffer.byteLength(expected))
  // Some of it may be on file, the rest queued: every range reads the same.
  for (const [pos, size] of [
    [0, expected.length],
    [7, 100],
    [expected.length - 30, 30],
  ] as const)
    expect(writer.readAt(pos, size).toString()).toBe(
      expected.slice(pos, pos + size),
    )
  await writer.sync()
  expect(readFileSync(path, 'utf8')).toBe(expected)
  expect(writer.readAt(0, expected.length).toString()).toBe(expected)
})

const fileBytes = (path: string) =>
  existsSync(path) ? readFileSync(path).length : 0

it('holds appends in memory until the flush syncs, or until a megabyte waits', async () => {
  const { path, writer } = fileWriter()
  for (let i = 0; i < 1000; i++) writer.append(Buffer.from(lines(i, i + 1)))
  expect(fileBytes(path)).toBe(0)
  await writer.sync()
  expect(fileBytes(path)).toBe(writer.end)
  const big = Buffer.alloc(1024 * 1024, 'x')
  writer.append(big)
  // Written without a sync: wait for it on the file, not on a timer.
  await vi.waitFor(() => expect(fileBytes(path)).toBe(writer.end))
})

it('keeps appending while a sync waits, and the file ends up whole and in order', async () => {
  const { path, writer } = fileWriter()
  writer.append(Buffer.from(lines(0, 10)))
  const syncing = writer.sync()
  for (let i = 10; i < 200; i++) writer.append(Buffer.from(lines(i, i + 1)))
  await syncing
  await writer.sync()
  expect(readFileSync(path, 'utf8')).toBe(lines(0, 200))
})

it('refuses appends after a failed write, and a sync never says it is durable', async () => {
  // Every write to /dev/full fails with ENOSPC, as on a full disk.
  const writer = new LogWriter('/dev/full', 0)
  writer.append(Buffer.from('first\n'))
  await expect(writer.sync()).rejects.toThrow(/ENOSPC/)
  expect(() => writer.append(Buffer.from('second\n'))).toThrow(/ENOSPC/)
  // What failed is still there for the next try, and still reads.
  expect(writer.readAt(0, 6).toString()).toBe('first\n')
  await expect(writer.sync()).rejects.toThrow(/ENOSPC/)
})

const joined = (chunks: Buffer[]) => Buffer.concat(chunks).toString()

it('keeps small appends in a few blocks of its own, and hands the journal what it has not taken', async () => {
  const { writer } = fileWriter()
  const first = Buffer.from(lines(0, 1))
  writer.append(first)
  // Copied: the caller's buffer is its own again.
  first.fill('z')
  for (let i = 1; i < 1000; i++) writer.append(Buffer.from(lines(i, i + 1)))
  const take = writer.takeJournal()
  if (!take || take === 'sync') throw new Error(`unexpected take ${take}`)
  expect(take.pos).toBe(0)
  expect(joined(take.chunks)).toBe(lines(0, 1000))
  // A thousand appends, not a thousand buffers: every one kept would be promoted.
  expect(take.chunks.length).toBeLessThan(10)
  expect(writer.takeJournal()).toBeNull()

  // Written to the file (a checkpoint) before the journal took it: the journal still gets it.
  for (let i = 1000; i < 1100; i++) writer.append(Buffer.from(lines(i, i + 1)))
  await writer.sync()
  const later = writer.takeJournal()
  if (!later || later === 'sync') throw new Error(`unexpected take ${later}`)
  expect(later.pos).toBe(Buffer.byteLength(lines(0, 1000)))
  expect(joined(later.chunks)).toBe(lines(1000, 1100))
  expect(writer.readAt(0, writer.end).toString()).toBe(lines(0, 1100))
})

it('asks for a sync once more waits than the journal takes, then journals again', async () => {
  const { path, writer } = fileWriter()
  const big = lines(0, 40_000)
  writer.append(Buffer.from(big))
  expect(writer.takeJournal()).toBe('sync')
  await writer.syncTaken()
  expect(readFileSync(path, 'utf8')).toBe(big)
  writer.append(Buffer.from('after\n'))
  const take = writer.takeJournal()
  if (!take || take === 'sync') throw new Error(`unexpected take ${take}`)
  expect(take.pos).toBe(Buffer.byteLength(big))
  expect(joined(take.chunks)).toBe('after\n')
})
