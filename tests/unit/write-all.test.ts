// writeAll: a short write is continued where it stopped, at a position or at the file's own;
// a write that makes no progress is an error naming the file rather than a loop forever.
import type { FileHandle } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { writeAll } from '../../src/engine/storage/write-all.ts'

/** A file that takes at most `most` bytes a call, into `bytes`, as FileHandle.write does. */
function shortFile(most: number) {
  const bytes: number[] = []
  let own = 0
  const write = (
    buffer: Buffer,
    offset: number,
    length: number,
    position: number | null,
  ) => {
    const n = Math.min(most, length)
    const at = position ?? own
    for (let i = 0; i < n; i++) bytes[at + i] = buffer[offset + i] ?? 0
    if (position === null) own += n
    return Promise.resolve({ bytesWritten: n, buffer })
  }
  return { file: { write } as unknown as FileHandle, bytes }
}

describe('writeAll', () => {
  it('finishes a write the file takes in short pieces, at a position', async () => {
    const { file, bytes } = shortFile(3)
    await writeAll(file, Buffer.from('0123456789'), 5, 'a test')
    expect(Buffer.from(bytes.slice(5)).toString()).toBe('0123456789')
  })

  it("finishes it at the file's own position when none is given", async () => {
    const { file, bytes } = shortFile(4)
    await writeAll(file, Buffer.from('abcdefghij'), null, 'a test')
    await writeAll(file, Buffer.from('KLM'), null, 'a test')
    expect(Buffer.from(bytes).toString()).toBe('abcdefghijKLM')
  })

  it('fails a write that makes no progress, naming the file', async () => {
    const { file } = shortFile(0)
    await expect(
      writeAll(file, Buffer.from('x'), 0, 'the spill'),
    ).rejects.toThrow('the spill write made no progress')
  })
})
