// The benchmark's world: an embedded Postgres in a temp dir, its tables, the engine served on
// 127.0.0.1, and the probes (WAL positions, slot lag, GC, open files) the measurements read.
import { readdirSync, readFileSync } from 'node:fs'
import { chmod, mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import pg from 'pg'
import type { ShapeDatabase } from '../../src/engine/database.ts'
import { Engine } from '../../src/engine/engine.ts'
import { createEngineServer } from '../../src/engine/http/node-listener.ts'
import { parseLsn } from '../../src/engine/pg/lsn.ts'
import {
  startEmbeddedPostgres,
  type RunningPostgres,
} from '../../src/server/platform/db/embedded-postgres.ts'

const ENGINE_ID = 'bench'
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export type Cluster = {
  root: string
  postgres: RunningPostgres
  admin: pg.Client
  connect(): Promise<pg.Client>
  close(): Promise<void>
}

export async function startCluster(): Promise<Cluster> {
  const root = await mkdtemp(join(tmpdir(), 'sluice-bench-'))
  // As root, Postgres runs as `postgres` and must be able to walk into its directory.
  await chmod(root, 0o755)
  const log: string[] = []
  let postgres: RunningPostgres
  try {
    postgres = await startEmbeddedPostgres({
      dir: join(root, 'pg'),
      // Default durability (fsync and synchronous_commit on): commits cost what they cost
      // in production. A larger max_wal_size keeps forced checkpoints out of the windows.
      settings: { max_wal_size: '4GB' },
      log: (line) => log.push(line),
    })
  } catch (error) {
    await rm(root, { recursive: true, force: true, maxRetries: 5 })
    throw new Error(`embedded Postgres failed:\n${log.slice(-20).join('\n')}`, {
      cause: error,
    })
  }
  const connect = async () => {
    const client = new pg.Client({ connectionString: postgres.url })
    client.on('error', () => {})
    await client.connect()
    return client
  }
  const admin = await connect()
  return {
    root,
    postgres,
    admin,
    connect,
    async close() {
      await admin.end().catch(() => {})
      await postgres.stop().catch(() => {})
      await rm(root, { recursive: true, force: true, maxRetries: 5 })
    },
  }
}

export const TABLES_SQL = `
  create table items (id bigserial primary key, team_id int not null, body text);
  create index on items (team_id);
  create table members (id bigserial primary key, team_id int not null, body text);
  create index on members (team_id);
  create table fan (id bigserial primary key, body text);
  insert into fan (body) select 'row ' || i from generate_series(1, 100) i;`

/** A body of three vocabulary words (`k<n>x`, never a substring of another) and filler. */
export function body(vocabulary: number): string {
  const word = () => `k${Math.floor(Math.random() * vocabulary)}x`
  return `${word()} ${word()} ${word()} lorem ipsum dolor sit amet`
}

/** Rows `team_id = 1..teams`, `perTeam` each, ids 1..teams*perTeam (the update pool). */
export async function seed(
  client: pg.Client,
  table: string,
  teams: number,
  perTeam: number,
  vocabulary: number,
): Promise<void> {
  const total = teams * perTeam
  for (let start = 0; start < total; start += 10_000) {
    const n = Math.min(10_000, total - start)
    const team = Array.from({ length: n }, (_, i) => ((start + i) % teams) + 1)
    const bodies = Array.from({ length: n }, () => body(vocabulary))
    await client.query(
      `insert into ${table} (team_id, body) select * from unnest($1::int[], $2::text[])`,
      [team, bodies],
    )
  }
}

/** WAL write position and, for a slot, its confirmed_flush_lsn. */
export async function walPositions(
  client: pg.Client,
  slot: string,
): Promise<{ current: bigint; confirmed: bigint | null }> {
  const { rows } = await client.query<{
    current: string
    confirmed: string | null
  }>(
    `select pg_current_wal_lsn()::text as current,
            (select confirmed_flush_lsn::text from pg_replication_slots
              where slot_name = $1) as confirmed`,
    [slot],
  )
  const row = rows[0]
  return {
    current: parseLsn(row?.current ?? '0/0'),
    confirmed: row?.confirmed ? parseLsn(row.confirmed) : null,
  }
}

export type RunningEngine = {
  engine: Engine
  database: ShapeDatabase
  shapeUrl: string
  slot: string
  /**
   * Requests to /v1/shape for shapes with this `where` since it was first asked for (the
   * first call answers 0): what reaches the origin.
   */
  shapeRequests(where: string): number
  stop(): Promise<void>
}

export async function startEngine(
  cluster: Cluster,
  deadline: number,
): Promise<RunningEngine> {
  const engine = new Engine({ dataDir: join(cluster.root, 'engine') })
  const database = engine.attach(ENGINE_ID, cluster.postgres.url)
  // Requests counted per `where` once asked for (fan-out): by the where's encoded form in the
  // raw URL, so the throughput windows' requests pay no URL parsing of the bench's own.
  const shapeRequests = new Map<string, { encoded: string; count: number }>()
  const server = createEngineServer(
    {
      database,
      allowShapeDeletion: true,
      // One long-poll per shape, up to 10,000, and the probes besides: Electric's 10,000 would
      // refuse some. The bench measures the engine's answers, not its admission limit.
      maxConcurrentRequests: { initial: 300, existing: 100_000 },
    },
    {
      onRequest(request) {
        if (shapeRequests.size === 0) return
        const url = request.url ?? ''
        for (const watched of shapeRequests.values())
          if (url.includes(watched.encoded)) watched.count++
      },
    },
  )
  await new Promise<void>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve()),
  )
  const { port } = server.address() as AddressInfo
  while (database.status !== 'active') {
    if (performance.now() > deadline)
      throw new Error(`engine did not become active (${database.status})`)
    await sleep(20)
  }
  return {
    engine,
    database,
    shapeUrl: `http://127.0.0.1:${port}/v1/shape`,
    slot: database.supervisor.names.slot,
    shapeRequests(where) {
      let watched = shapeRequests.get(where)
      if (!watched) {
        watched = {
          encoded: new URLSearchParams({ where }).toString(),
          count: 0,
        }
        shapeRequests.set(where, watched)
      }
      return watched.count
    },
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        // Long-polls would hold close() open for up to 20 s.
        server.closeAllConnections()
      })
      await engine.remove(ENGINE_ID)
    },
  }
}

/** A forced full GC: global.gc under --expose-gc, else the flag set at run time; null if neither. */
export function findGc(): (() => void) | null {
  const existing = (globalThis as { gc?: () => void }).gc
  if (existing) return existing
  try {
    setFlagsFromString('--expose-gc')
    return runInNewContext('gc') as () => void
  } catch {
    return null
  }
}

/** Open file descriptors of this process and its limit (Linux /proc; null elsewhere). */
export function openFiles(): { open: number; limit: number } | null {
  try {
    const open = readdirSync('/proc/self/fd').length
    const limits = readFileSync('/proc/self/limits', 'utf8')
    const m = /^Max open files\s+(\d+|unlimited)/m.exec(limits)
    const limit = m?.[1] && m[1] !== 'unlimited' ? Number(m[1]) : Infinity
    return { open, limit }
  } catch {
    return null
  }
}
