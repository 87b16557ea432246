// `npm run engine` given Electric's variables one by one, where a process shows what they do:
// names of slot and publication, manual publishing, the pool, cache ages and limits. Electric's
// quickstart compose file runs the engine's image in deploy.test.ts.
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { freePort } from '../../src/server/platform/db/embedded-postgres.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'

const WAIT = { timeout: 30_000, interval: 100 }
const CLI = resolve('src/engine/cli.ts')
const TSX = pathToFileURL(resolve('node_modules/tsx/dist/loader.mjs')).href

let workDir: string
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'sluice-engine-electric-'))
})
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true })
})

/**
 * The CLI as a child process given exactly `env` (plus PATH), in its own working directory
 * (where its default storage dir lands).
 */
async function runEngine(env: Record<string, string>, args: string[] = []) {
  const cwd = await mkdtemp(join(workDir, 'run-'))
  const child = spawn(process.execPath, ['--import', TSX, CLI, ...args], {
    cwd,
    stdio: 'pipe',
    env: { PATH: process.env.PATH ?? '', ...env },
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((done) =>
    child.on('exit', (code) => done(code)),
  )
  return {
    cwd,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM')
      return exited
    },
  }
}
type Running = Awaited<ReturnType<typeof runEngine>>

async function serving(engine: Running) {
  await expect.poll(engine.output, WAIT).toContain('serving the shape API')
}

async function active(engine: Running) {
  await expect.poll(engine.output, WAIT).toContain('database active')
}

/** The slots on the run's cluster, by name, with their database. */
async function slots(): Promise<Map<string, string>> {
  const client = new pg.Client({ connectionString: inject('pgAdminUrl') })
  await client.connect()
  try {
    const { rows } = await client.query<{
      slot_name: string
      database: string
    }>('select slot_name, database from pg_replication_slots')
    return new Map(rows.map((r) => [r.slot_name, r.database]))
  } finally {
    await client.end()
  }
}

describe('slot and publication names', () => {
  let first: TestDatabase
  let second: TestDatabase
  beforeAll(async () => {
    ;[first, second] = await Promise.all([
      createTestDatabase(),
      createTestDatabase(),
    ])
  })
  afterAll(async () => {
    await Promise.all([first.drop(), second.drop()])
  })

  async function engineOn(
    database: TestDatabase,
    env: Record<string, string> = {},
  ) {
    // The port as a flag: older engines (which named every database's slot alike) took it too.
    const engine = await runEngine({ DATABASE_URL: database.url, ...env }, [
      '--port',
      String(await freePort()),
    ])
    await serving(engine)
    return engine
  }

  it('two engines on two databases of one cluster each stream from a slot of their own', async () => {
    const a = await engineOn(first)
    const b = await engineOn(second)
    try {
      await active(a)
      await active(b)
      const found = await slots()
      expect(found.get(`sluice_standalone_${first.name}`)).toBe(first.name)
      expect(found.get(`sluice_standalone_${second.name}`)).toBe(second.name)
    } finally {
      expect(await a.stop()).toBe(0)
      expect(await b.stop()).toBe(0)
    }
  }, 60_000)

  it('an engine whose slot on this database has the older name keeps it', async () => {
    await first.db.query(
      "select pg_create_logical_replication_slot('sluice_standalone', 'pgoutput')",
    )
    const engine = await engineOn(first)
    try {
      await active(engine)
      const { rows } = await first.db.query<{ active: boolean }>(
        "select active from pg_replication_slots where slot_name = 'sluice_standalone'",
      )
      expect(rows[0]?.active).toBe(true)
    } finally {
      expect(await engine.stop()).toBe(0)
      await first.db.query(
        "select pg_drop_replication_slot('sluice_standalone')",
      )
    }
  }, 60_000)

  it("ELECTRIC_REPLICATION_STREAM_ID names them as Electric's", async () => {
    const engine = await engineOn(second, {
      ELECTRIC_REPLICATION_STREAM_ID: 'My_App',
    })
    try {
      await active(engine)
      expect((await slots()).get('electric_slot_my_app')).toBe(second.name)
      const { rows } = await second.db.query(
        "select 1 from pg_publication where pubname = 'electric_publication_my_app'",
      )
      expect(rows).toHaveLength(1)
    } finally {
      expect(await engine.stop()).toBe(0)
    }
  }, 60_000)
})

describe('ELECTRIC_MANUAL_TABLE_PUBLISHING', () => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await createTestDatabase()
  })
  afterAll(async () => {
    await database.drop()
  })

  it('alters nothing: replication waits for the publication, a shape for its table, each saying the SQL to run', async () => {
    const port = await freePort()
    await database.db.query(
      "create table notes (id int primary key, body text); insert into notes values (1, 'a')",
    )
    const engine = await runEngine({
      DATABASE_URL: database.url,
      ELECTRIC_PORT: String(port),
      ELECTRIC_REPLICATION_STREAM_ID: 'manual',
      ELECTRIC_MANUAL_TABLE_PUBLISHING: 'true',
    })
    try {
      await serving(engine)
      await expect
        .poll(engine.output, WAIT)
        .toContain(
          'Publication "electric_publication_manual" not found in the database, and ELECTRIC_MANUAL_TABLE_PUBLISHING keeps the engine from creating it. Run: CREATE PUBLICATION "electric_publication_manual"',
        )
      const { rows: none } = await database.db.query(
        "select 1 from pg_publication where pubname = 'electric_publication_manual'",
      )
      expect(none).toHaveLength(0)

      await database.db.query(
        `create publication electric_publication_manual with (publish_via_partition_root = false${
          Number(
            (
              await database.db.query<{ v: string }>(
                "select current_setting('server_version_num') as v",
              )
            ).rows[0]?.v,
          ) >= 180000
            ? ', publish_generated_columns = stored'
            : ''
        })`,
      )
      await active(engine)
      const shape = () =>
        fetch(`http://127.0.0.1:${port}/v1/shape?table=notes&offset=-1`)
      const missing = await shape()
      expect(missing.status).toBe(503)
      expect(missing.headers.get('retry-after')).not.toBeNull()
      const { message } = (await missing.json()) as { message: string }
      expect(message).toBe(
        'Database table "public.notes" is missing from the publication "electric_publication_manual" and the ELECTRIC_MANUAL_TABLE_PUBLISHING setting prevents the engine from adding it. Run: ALTER TABLE "public"."notes" REPLICA IDENTITY FULL; ALTER PUBLICATION "electric_publication_manual" ADD TABLE "public"."notes";',
      )
      const { rows: untouched } = await database.db.query<{ r: string }>(
        "select relreplident::text as r from pg_class where relname = 'notes'",
      )
      expect(untouched[0]?.r).toBe('d')

      await database.db.query(
        'alter publication electric_publication_manual add table notes',
      )
      const identity = (await (await shape()).json()) as { message: string }
      expect(identity.message).toBe(
        'Database table "public.notes" does not have its replica identity set to FULL. Run: ALTER TABLE "public"."notes" REPLICA IDENTITY FULL;',
      )
      await database.db.query('alter table notes replica identity full')
      const served = await shape()
      expect(served.status).toBe(200)
      expect(await served.text()).toContain('"body":"a"')
    } finally {
      expect(await engine.stop()).toBe(0)
    }
    // Stopped, the publication someone else made stays.
    const { rows } = await database.db.query(
      "select 1 from pg_publication where pubname = 'electric_publication_manual'",
    )
    expect(rows).toHaveLength(1)
  }, 90_000)
})

describe('connections', () => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await createTestDatabase()
  })
  afterAll(async () => {
    await database.drop()
  })

  it('queries over ELECTRIC_POOLED_DATABASE_URL, at most ELECTRIC_DB_POOL_SIZE at once, and replicates over DATABASE_URL', async () => {
    const port = await freePort()
    const pooled = new URL(database.url)
    pooled.searchParams.set('application_name', 'pooled-by-electric-env')
    await database.db.query(
      'create table a (id int primary key); create table b (id int primary key); create table c (id int primary key)',
    )
    const engine = await runEngine({
      DATABASE_URL: database.url,
      ELECTRIC_POOLED_DATABASE_URL: pooled.toString(),
      ELECTRIC_DB_POOL_SIZE: '1',
      ELECTRIC_PORT: String(port),
    })
    try {
      await active(engine)
      const answers = await Promise.all(
        ['a', 'b', 'c'].map((table) =>
          fetch(`http://127.0.0.1:${port}/v1/shape?table=${table}&offset=-1`),
        ),
      )
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200])
      const { rows } = await database.db.query<{
        application_name: string
        n: string
      }>(
        `select application_name, count(*)::text as n from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()
          group by application_name`,
      )
      const count = (name: string) =>
        Number(rows.find((r) => r.application_name === name)?.n ?? 0)
      expect(count('pooled-by-electric-env')).toBe(1)
      expect(count('sluice-replication')).toBe(1)
    } finally {
      expect(await engine.stop()).toBe(0)
    }
  }, 60_000)

  it('stops at start, naming it, on a CA file it cannot read', async () => {
    const engine = await runEngine({
      DATABASE_URL: database.url,
      ELECTRIC_DATABASE_CA_CERTIFICATE_FILE: join(workDir, 'no-such.crt'),
    })
    expect(await engine.exited).toBe(1)
    expect(engine.output()).toContain(
      `ELECTRIC_DATABASE_CA_CERTIFICATE_FILE: cannot read ${join(workDir, 'no-such.crt')}`,
    )
  }, 30_000)
})

describe('the rest of Electric’s variables, as a process', () => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await createTestDatabase()
    await database.db.query('create table t (id int primary key)')
  })
  afterAll(async () => {
    await database.drop()
  })

  it('storage dir, long-poll timeout, shape deletion; one warning naming what it does not implement', async () => {
    const port = await freePort()
    const storage = join(workDir, 'storage')
    const engine = await runEngine({
      DATABASE_URL: database.url,
      ELECTRIC_SECRET: 'sekret',
      ELECTRIC_PORT: String(port),
      ELECTRIC_STORAGE_DIR: storage,
      ELECTRIC_LONG_POLL_TIMEOUT: '500',
      ELECTRIC_ENABLE_INTEGRATION_TESTING: 'true',
      ELECTRIC_STORAGE: 'MEMORY',
      ELECTRIC_LOG_LEVEL: 'debug',
    })
    try {
      await active(engine)
      expect(
        engine
          .output()
          .split('\n')
          .filter((line) => line.includes('does not implement')),
      ).toEqual([
        'warning: the engine does not implement ELECTRIC_LOG_LEVEL, ELECTRIC_STORAGE: ignored',
      ])
      const base = `http://127.0.0.1:${port}/v1/shape?table=t&secret=sekret`
      const first = await fetch(`${base}&offset=-1`)
      expect(first.status).toBe(200)
      await first.text()
      const handle = first.headers.get('electric-handle') ?? ''
      const offset = first.headers.get('electric-offset') ?? ''
      const started = performance.now()
      const live = await fetch(
        `${base}&handle=${handle}&offset=${offset}&live=true`,
      )
      await live.text()
      expect(live.status).toBe(200)
      // Electric's default is 20 s; this one answered after half a second.
      expect(performance.now() - started).toBeLessThan(5_000)
      expect(
        (await fetch(`${base}&handle=${handle}`, { method: 'DELETE' })).status,
      ).toBe(202)
      expect(
        await readFile(join(storage, 'databases'), 'utf8').catch(
          (error: NodeJS.ErrnoException) => error.code,
        ),
      ).toBe('EISDIR')
    } finally {
      expect(await engine.stop()).toBe(0)
    }
  }, 60_000)

  it("cache ages and admission's limits reach the answers", async () => {
    const port = await freePort()
    const engine = await runEngine({
      DATABASE_URL: database.url,
      ELECTRIC_INSECURE: 'true',
      ELECTRIC_PORT: String(port),
      ELECTRIC_CACHE_MAX_AGE: '1',
      ELECTRIC_CACHE_STALE_AGE: '3',
      ELECTRIC_MAX_CONCURRENT_REQUESTS: '{"initial": 5, "existing": 1}',
    })
    try {
      await active(engine)
      const base = `http://127.0.0.1:${port}/v1/shape?table=t`
      const first = await fetch(`${base}&offset=-1`)
      await first.text()
      const handle = first.headers.get('electric-handle') ?? ''
      const offset = first.headers.get('electric-offset') ?? ''
      const tip = await fetch(`${base}&handle=${handle}&offset=${offset}`)
      await tip.text()
      expect(tip.headers.get('cache-control')).toBe(
        'public, max-age=1, stale-while-revalidate=3',
      )
      // One request on an existing shape at a time: a parked long-poll holds the only permit.
      const parked = new AbortController()
      const live = fetch(
        `${base}&handle=${handle}&offset=${offset}&live=true`,
        { signal: parked.signal },
      ).catch(() => null)
      await expect
        .poll(async () => {
          const second = await fetch(
            `${base}&handle=${handle}&offset=${offset}&live=true&cursor=1`,
          )
          await second.text()
          return second.status
        }, WAIT)
        .toBe(503)
      parked.abort()
      await live
    } finally {
      expect(await engine.stop()).toBe(0)
    }
  }, 60_000)

  it('stops at start naming every bad variable', async () => {
    const engine = await runEngine({
      DATABASE_URL: database.url,
      ELECTRIC_PORT: 'http',
      ELECTRIC_MAX_CONCURRENT_REQUESTS: '{"initial": -1}',
    })
    expect(await engine.exited).toBe(1)
    expect(engine.output()).toMatch(/^ELECTRIC_PORT must be/m)
    expect(engine.output()).toMatch(
      /^ELECTRIC_MAX_CONCURRENT_REQUESTS initial must be/m,
    )
  }, 30_000)
})
