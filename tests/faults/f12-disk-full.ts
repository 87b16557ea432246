// F12: the engine's disk fills during a write load. Its data dir is a small tmpfs of its own
// (mounting one needs root, as on CI's machine), filled to the last byte by a file beside the
// logs. The engine must say so (reconnecting, its reason the full disk), confirm nothing to the
// slot that is not durable meanwhile, and recover on its own once the file is removed: every
// row once. Then it is restarted on the same data dir: what it serves comes from its logs, so
// a slot confirmed past them would show here as lost rows.
import { execFileSync } from 'node:child_process'
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs'
import { rm, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import {
  freePort,
  startEmbeddedPostgres,
} from '../../src/server/platform/db/embedded-postgres.ts'
import { createPool, type Db } from '../../src/server/platform/db/database.ts'
import { replicationNames } from '../../src/engine/replication/names.ts'
import { startTestEngine } from '../support/engine.ts'
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
const ID = 'f12_disk_full'
const DISK = '48m'

export const f12: FaultScenario = {
  id: 'F12',
  title: "the engine's disk fills",
  quick: false,
  async run(ctx) {
    const root = await scratchDir('f12')
    const disk = join(root, 'disk')
    mkdirSync(disk)
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${DISK}`, 'f12', disk])
    } catch (error) {
      await rm(root, { recursive: true, force: true })
      throw new Error(
        `F12 mounts a ${DISK} tmpfs as the engine's disk, which needs root: ${(error as Error).message}`,
        { cause: error },
      )
    }
    const server = await startEmbeddedPostgres({ dir: join(root, 'pg') })
    const db = createPool(server.url)
    await db.query('create table items (id int primary key, body text)')
    const options = {
      id: ID,
      dataDir: join(disk, 'engine'),
      port: await freePort(),
    }
    // Every status the engine reports, with its reason.
    const statuses: { status: string; reason?: string }[] = []
    const events = {
      onStatus: (status: string, reason?: string) =>
        void statuses.push({ status, reason }),
    }
    let engine = await startTestEngine(server.url, { ...options, events })
    const client = follow(engine.shapeUrl, 'items')
    const filler = join(disk, 'filler')
    const full = () =>
      statuses.filter((s) => /ENOSPC|no space/i.test(s.reason ?? '')).length
    try {
      const load = writeLoad(db, 'items')
      await waitUntil('rows to reach the client', () => client.rows.size >= 50)
      fill(filler)
      const fullAt = load.written
      ctx.log(`F12: disk filled after ${fullAt} rows written`)
      await waitUntil(
        'the engine to say the disk is full',
        () => full() > 0,
        30_000,
      )
      const reason = engine.database.statusReason
      // While full, nothing more is durable: the slot must not move past what it held.
      const confirmedWhenFull = await confirmedLsn(db)
      await waitUntil(
        'writes while the disk is full',
        () => load.written >= fullAt + 200,
      )
      const failures = engine.database.replicationFailures
      await waitUntil(
        'the engine to retry while the disk is full',
        () => engine.database.replicationFailures >= failures + 2,
        60_000,
      )
      const confirmedLater = await confirmedLsn(db)
      if (confirmedLater !== confirmedWhenFull)
        throw new Error(
          `the slot moved from ${confirmedWhenFull} to ${confirmedLater} while nothing could be written`,
        )
      // One clear state while full: no "active" between retries.
      const whileFull = statuses.slice(
        statuses.findIndex((s) => /ENOSPC|no space/i.test(s.reason ?? '')),
      )
      if (whileFull.some((s) => s.status !== 'reconnecting'))
        throw new Error(
          `the engine's status flapped while the disk was full: ${whileFull.map((s) => s.status).join(' → ')}`,
        )
      await unlink(filler)
      const freed = performance.now()
      ctx.log('F12: space freed')
      await waitUntil(
        'the engine to be active again',
        () => engine.database.status === 'active',
        60_000,
      )
      const atFree = load.written
      await waitUntil(
        'rows written after the space came back to arrive',
        () => client.rows.size >= atFree + 20,
      ).catch(explain(client))
      await load.stop()
      const live = await settle(
        client,
        () => truthOf(db, 'items', COLUMNS),
        COLUMNS,
        freed,
      )
      // What the logs hold on disk, served by an engine that has only them.
      const handle = client.handles.at(-1)
      client.stop()
      await engine.stop()
      engine = await startTestEngine(server.url, options)
      const after = follow(engine.shapeUrl, 'items')
      try {
        const reopened = await settle(
          after,
          () => truthOf(db, 'items', COLUMNS),
          COLUMNS,
          performance.now(),
        )
        if (after.handles.at(-1) !== handle)
          throw new Error(
            `the restarted engine served another shape (${handle} then ${after.handles.join(', ')})`,
          )
        return {
          lost: live.lost + reopened.lost,
          duplicated: live.duplicated + reopened.duplicated,
          recoverMs: live.recoverMs,
          notes: `${live.notes}; engine ${statuses.map((s) => s.status).join(' → ')} (${reason}); slot held at ${confirmedWhenFull} while full; restarted on its logs: same handle, every row`,
        }
      } finally {
        after.stop()
      }
    } finally {
      client.stop()
      await engine.destroy().catch(() => {})
      await db.end()
      await server.stop()
      execFileSync('umount', [disk])
      await rm(root, { recursive: true, force: true })
    }
  },
}

// Fills the file system holding `path` to its last byte.
function fill(path: string): void {
  const fd = openSync(path, 'w')
  const block = Buffer.alloc(1 << 20)
  try {
    for (;;) writeSync(fd, block)
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOSPC') throw error
    // The last partial block: down to single bytes.
    try {
      for (;;) writeSync(fd, block, 0, 1)
    } catch {
      // full
    }
  } finally {
    closeSync(fd)
  }
}

async function confirmedLsn(db: Db): Promise<string | null> {
  const { rows } = await db.query<{ lsn: string | null }>(
    'select confirmed_flush_lsn::text as lsn from pg_replication_slots where slot_name = $1',
    [replicationNames(ID).slot],
  )
  return rows[0]?.lsn ?? null
}
