import type { FileHandle } from 'node:fs/promises'

/**
 * All of `bytes`, however many calls it takes (a write may be short): at `pos`, or at the
 * file's own position when `pos` is null. `what` names the file in the error a write that
 * makes no progress gets.
 */
export async function writeAll(
  file: FileHandle,
  bytes: Buffer,
  pos: number | null,
  what: string,
): Promise<void> {
  let written = 0
  while (written < bytes.length) {
    const { bytesWritten } = await file.write(
      bytes,
      written,
      bytes.length - written,
      pos === null ? null : pos + written,
    )
    if (bytesWritten === 0) throw new Error(`${what} write made no progress`)
    written += bytesWritten
  }
}
