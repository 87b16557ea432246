// F3: the source Postgres stopped in immediate mode (no checkpoint, crash recovery) during a
// write load, then started again. The engine must say `reconnecting`, then `active`, and its
// client must get every committed row once.
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { createPool } from '../../src/server/platform/db/database.ts'
import { startEmbeddedPostgres } from '../../src/server/platform/db/embedded-postgres.ts'
import { startTestEngine } from '../support/engine.ts'
import { waitUntil } from '../support/wait.ts'
import type { FaultScenario } from './scenario.ts'
import { follow, scratchDir, settle, truthOf, writeLoad } from './support.ts'

const COLUMNS = ['id', 'body']

export const f3: FaultScenario = {
  id: 'F3',
  title: 'source Postgres crashed (immediate stop) during writes, restarted',
  quick: true,
  async run(ctx) {
    const root = await scratchDir('f3')
    const dir = join(root, 'pg')
    let server = await startEmbeddedPostgres({ dir })
    const db = createPool(server.url)
    await db.query('create table events (id int primary key, body text)')
    const engine = await startTestEngine(server.url, { id: 'f3_source_crash' })
    const client = follow(engine.shapeUrl, 'events')
    const statuses: string[] = []
    const watch = setInterval(() => {
      if (statuses.at(-1) !== engine.database.status)
        statuses.push(engine.database.status)
    }, 10)
    try {
      const load = writeLoad(db, 'events')
      await waitUntil('rows to reach the client', () => client.rows.size >= 50)
      await server.crash()
      ctx.log(`F3: source crashed after ${load.written} rows written`)
      await waitUntil(
        'the engine to leave active',
        () => engine.database.status !== 'active',
      )
      server = await startEmbeddedPostgres({ dir, port: server.port })
      const restarted = performance.now()
      await waitUntil(
        'the engine to be active again',
        () => engine.database.status === 'active',
      )
      const atRestart = load.written
      await waitUntil(
        'writes after the restart',
        () => load.written >= atRestart + 20,
      )
      await load.stop()
      const result = await settle(
        client,
        () => truthOf(db, 'events', COLUMNS),
        COLUMNS,
        restarted,
      )
      if (!statuses.includes('reconnecting'))
        throw new Error(
          `the engine never said reconnecting (${statuses.join(' → ')})`,
        )
      return {
        ...result,
        notes: `${result.notes}; engine ${statuses.join(' → ')}`,
      }
    } finally {
      clearInterval(watch)
      client.stop()
      await engine.destroy().catch(() => {})
      await db.end()
      await server.stop()
      await rm(root, { recursive: true, force: true })
    }
  },
}
