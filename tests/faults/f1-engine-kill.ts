// F1: the engine process killed with SIGKILL during a write load, a torn record left at the end
// of its shape log, and started again on the same port and data dir. Its client must resume with
// the same handle (no 409), with no gap and no duplicate.
import { appendFile, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import {
  freePort,
  startEmbeddedPostgres,
} from '../../src/server/platform/db/embedded-postgres.ts'
import { createPool } from '../../src/server/platform/db/database.ts'
import { startEngineProcess } from './engine-process.ts'
import { waitUntil } from '../support/wait.ts'
import type { FaultScenario } from './scenario.ts'
import {
  explain,
  follow,
  scratchDir,
  settle,
  truthOf,
  writeLoad,
} from './support.ts'

const COLUMNS = ['id', 'body']

export const f1: FaultScenario = {
  id: 'F1',
  title: 'engine killed (SIGKILL) during writes, restarted',
  quick: true,
  async run(ctx) {
    // Its own Postgres: the standalone engine's slot name is fixed, and slots are cluster-wide.
    const root = await scratchDir('f1')
    const server = await startEmbeddedPostgres({ dir: join(root, 'pg') })
    const db = createPool(server.url)
    const dataDir = join(root, 'engine')
    const port = await freePort()
    const start = () =>
      startEngineProcess({
        databaseUrl: server.url,
        port,
        dataDir,
        log: ctx.log,
      })
    await db.query('create table items (id int primary key, body text)')
    let engine = await start()
    const client = follow(engine.shapeUrl, 'items')
    try {
      const load = writeLoad(db, 'items')
      await waitUntil('rows to reach the client', () => client.rows.size >= 50)
      await engine.kill()
      ctx.log(`F1: engine killed after ${load.written} rows written`)
      // A record cut mid-line, as a crash inside a write leaves it.
      const files = await readdir(dataDir, { recursive: true })
      const logs = files.filter((f) => f.endsWith('/log') || f === 'log')
      for (const log of logs)
        await appendFile(join(dataDir, log), '0/FFFFFFFF\t1\t{"key":"torn')
      const before = client.handles.at(-1)
      engine = await start()
      const restarted = performance.now()
      const atRestart = load.written
      await waitUntil(
        'more rows after the restart',
        () => client.rows.size >= atRestart + 20,
      ).catch(explain(client))
      await load.stop()
      const result = await settle(
        client,
        () => truthOf(db, 'items', COLUMNS),
        COLUMNS,
        restarted,
      )
      if (logs.length === 0) throw new Error('no shape log to tear was found')
      if (client.refetches > 0 || client.handles.at(-1) !== before)
        throw new Error(
          `the client was sent a new shape after the restart (handles ${client.handles.join(', ')})`,
        )
      return {
        ...result,
        notes: `${result.notes}; ${logs.length} torn log tail(s), same handle`,
      }
    } finally {
      client.stop()
      await engine.kill().catch(() => {})
      await db.end()
      await server.stop()
      await rm(root, { recursive: true, force: true })
    }
  },
}
