// Local mode's own Postgres keeps its port across restarts: a source added from its URL (the
// README's suggested first source) still reaches it after `npm start` runs again. A port
// taken meanwhile is a clear error, not a silent move.
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startEmbeddedPostgres } from '../../src/server/platform/db/embedded-postgres.ts'

let root: string
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sluice-pg-port-'))
  await chmod(root, 0o755)
})
afterAll(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 5 })
})

describe('the embedded Postgres port', () => {
  it('is chosen once and kept; taken, it says so and how to move on', async () => {
    const dir = join(root, 'postgres')
    const first = await startEmbeddedPostgres({ dir })
    await first.stop()
    expect(Number(await readFile(join(dir, 'port'), 'utf8'))).toBe(first.port)

    const second = await startEmbeddedPostgres({ dir })
    await second.stop()
    expect(second.port).toBe(first.port)

    const squatter = createServer()
    await new Promise<void>((listening) =>
      squatter.listen(first.port, '127.0.0.1', listening),
    )
    try {
      await expect(startEmbeddedPostgres({ dir })).rejects.toThrow(
        `Embedded Postgres's port ${first.port} is taken by another process`,
      )
    } finally {
      await new Promise((closed) => squatter.close(closed))
    }
  }, 60_000)
})
