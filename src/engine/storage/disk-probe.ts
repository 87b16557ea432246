// Whether the shape logs can be written, asked before replication starts (again). After a
// full disk (fault F12) the stream used to start, say "active", and fail at its first
// transaction: the status flapped with every retry. A stream now starts only once a write
// as large as the log writer's batch, made durable, succeeds beside the logs.
import { open, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { PRIVATE_FILE } from './private-files.ts'
import { WRITE_AFTER_BYTES } from './log-writer.ts'

const PROBE_FILE = '.write-probe'

/** Resolves when `dir` takes a batch's worth of bytes; rejects with the write's error. */
export async function probeWrites(dir: string): Promise<void> {
  const path = join(dir, PROBE_FILE)
  try {
    const file = await open(path, 'w', PRIVATE_FILE)
    try {
      await file.write(Buffer.alloc(WRITE_AFTER_BYTES))
      await file.datasync()
    } finally {
      await file.close()
    }
  } finally {
    await rm(path, { force: true })
  }
}
