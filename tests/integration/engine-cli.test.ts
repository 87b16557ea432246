// `npm run engine` as a process: it listens on loopback unless told otherwise, and says so
// loudly when it listens further without a secret (it would serve every table its role can
// read to anyone who reaches it). With METRICS_PORT it serves Prometheus metrics like the
// server's, checked against a known load.
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../src/server/platform/db/embedded-postgres.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { sampleValue } from '../support/prometheus.ts'
import {
  readShapeToEnd,
  waitLive,
  type ShapePosition,
} from '../support/shape-reads.ts'

let database: TestDatabase
let dataDir: string
beforeAll(async () => {
  database = await createTestDatabase()
  dataDir = await mkdtemp(join(tmpdir(), 'sluice-engine-cli-'))
})
afterAll(async () => {
  await database.drop()
  await rm(dataDir, { recursive: true, force: true })
})

/** The CLI as a child process; its output so far, and how it exited. */
function spawnEngine(args: string[], env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/engine/cli.ts', ...args],
    { stdio: 'pipe', env: { ...process.env, ...env } },
  )
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => resolve(code)),
  )
  return { child, output: () => output, exited }
}

/**
 * One at a time: the CLI's slot name is fixed, and slots are cluster-wide. The database URL
 * comes from the environment unless `env` says otherwise (as an operator should pass it).
 */
async function runEngine(args: string[], env: Record<string, string> = {}) {
  const port = await freePort()
  const { child, output, exited } = spawnEngine(
    ['--data-dir', dataDir, '--port', String(port), ...args],
    { DATABASE_URL: database.url, ...env },
  )
  await expect
    .poll(output, { timeout: 30_000 })
    .toContain('serving the shape API')
  return {
    port,
    /** What `ps` shows of it: its arguments. */
    commandLine: () =>
      readFile(`/proc/${child.pid}/cmdline`, 'utf8').then((text) =>
        text.split('\0').join(' '),
      ),
    output,
    async stop() {
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
    },
  }
}

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

const externalAddresses = () =>
  Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && a.family === 'IPv4' && !a.internal)
    .map((a) => a?.address ?? '')

describe('the standalone engine', () => {
  it('listens on loopback by default, and only there', async () => {
    const engine = await runEngine([])
    try {
      expect(engine.output()).toContain(
        `on http://127.0.0.1:${engine.port}/v1/shape`,
      )
      expect(engine.output()).not.toMatch(/warning/i)
      expect(await accepts('127.0.0.1', engine.port)).toBe(true)
      for (const address of externalAddresses())
        expect(await accepts(address, engine.port), address).toBe(false)
    } finally {
      await engine.stop()
    }
  }, 60_000)

  it('warns when it listens beyond loopback without a secret', async () => {
    const open = await runEngine(['--host', '0.0.0.0'])
    try {
      // Its own line on stderr: it may come after the serving line on stdout.
      await expect
        .poll(() => open.output())
        .toMatch(
          /warning: .*0\.0\.0\.0.* without --secret: anyone who can reach it can read every table/,
        )
    } finally {
      await open.stop()
    }
    const guarded = await runEngine(['--host', '0.0.0.0'], {
      ELECTRIC_SECRET: 's3cret',
    })
    try {
      expect(guarded.output()).not.toMatch(/warning/i)
    } finally {
      await guarded.stop()
    }
  }, 60_000)
})

describe('the standalone engine’s secrets', () => {
  const password = () => new URL(database.url).password
  const SECRET = 'engine-secret-not-in-ps'

  /** The engine reached its database, and answers only requests that carry the secret. */
  async function expectServing(engine: Awaited<ReturnType<typeof runEngine>>) {
    await expect
      .poll(engine.output, { timeout: 30_000 })
      .toContain('database active')
    const shape = (secret: string) =>
      fetch(
        `http://127.0.0.1:${engine.port}/v1/shape?table=nosuch&offset=-1&secret=${secret}`,
      )
    expect((await shape('wrong')).status).toBe(401)
    // Past the secret: the table is the one thing wrong.
    expect((await shape(SECRET)).status).toBe(400)
  }

  it('takes the database URL and the secret from the environment, out of ps', async () => {
    const engine = await runEngine([], { ELECTRIC_SECRET: SECRET })
    try {
      await expectServing(engine)
      const shown = await engine.commandLine()
      expect(shown).toContain('src/engine/cli.ts')
      expect(shown).not.toContain(password())
      expect(shown).not.toContain(SECRET)
      expect(engine.output()).not.toMatch(/warning/i)
    } finally {
      await engine.stop()
    }
  }, 60_000)

  it('takes them from files, out of ps', async () => {
    const urlFile = join(dataDir, 'database-url')
    const secretFile = join(dataDir, 'secret')
    // A trailing newline, as `echo` writes: not part of the secret.
    await writeFile(urlFile, `${database.url}\n`, { mode: 0o600 })
    await writeFile(secretFile, `${SECRET}\n`, { mode: 0o600 })
    const engine = await runEngine(
      ['--database-url-file', urlFile, '--secret-file', secretFile],
      { DATABASE_URL: '' },
    )
    try {
      await expectServing(engine)
      const shown = await engine.commandLine()
      expect(shown).toContain('--secret-file')
      expect(shown).not.toContain(password())
      expect(shown).not.toContain(SECRET)
      expect(engine.output()).not.toMatch(/warning/i)
    } finally {
      await engine.stop()
    }
  }, 60_000)

  it('still takes them as arguments, warning that ps shows them', async () => {
    const engine = await runEngine(
      ['--database-url', database.url, '--secret', SECRET],
      { DATABASE_URL: '' },
    )
    try {
      await expectServing(engine)
      for (const flag of ['--database-url', '--secret'])
        expect(engine.output()).toContain(
          `warning: ${flag} on the command line shows in ps to every user of this machine; use ${flag}-file PATH or `,
        )
      expect(engine.output()).not.toContain(SECRET)
      expect(engine.output()).not.toContain(password())
    } finally {
      await engine.stop()
    }
  }, 60_000)

  it('refuses an unreadable file by its flag, and says where secrets come from in --help', async () => {
    const missing = spawnEngine(
      ['--database-url-file', join(dataDir, 'nothing-here')],
      { DATABASE_URL: '' },
    )
    expect(await missing.exited).toBe(1)
    expect(missing.output()).toContain(
      `--database-url-file: cannot read ${join(dataDir, 'nothing-here')} (ENOENT)`,
    )
    const help = spawnEngine(['--help'], {})
    expect(await help.exited).toBe(0)
    for (const text of [
      '--database-url-file PATH',
      'DATABASE_URL',
      '--secret-file PATH',
      'ELECTRIC_SECRET',
      'ps',
    ])
      expect(help.output()).toContain(text)
  }, 60_000)
})

describe('the standalone engine’s metrics', () => {
  const WAIT = { timeout: 30_000, interval: 100 }

  it('counts state, lag, shapes, changes, live clients and log bytes of its database, and its process', async () => {
    const metricsPort = await freePort()
    const engine = await runEngine([], { METRICS_PORT: String(metricsPort) })
    const scrape = async () => {
      const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
      return response.text()
    }
    const labels = { source_id: 'standalone' }
    try {
      // Said once the metrics port listens, after the shape API's line.
      await expect
        .poll(() => engine.output())
        .toContain(`metrics on http://127.0.0.1:${metricsPort}/metrics`)
      // Loopback only unless METRICS_HOST opens it.
      for (const address of externalAddresses())
        expect(await accepts(address, metricsPort), address).toBe(false)
      await expect
        .poll(
          async () =>
            sampleValue(await scrape(), 'sluice_source_state', {
              ...labels,
              state: 'active',
            }),
          WAIT,
        )
        .toBe(1)
      await expect
        .poll(
          async () =>
            sampleValue(
              await scrape(),
              'sluice_source_replication_lag_bytes',
              labels,
            ),
          WAIT,
        )
        .toBeGreaterThanOrEqual(0)
      expect(
        sampleValue(await scrape(), 'sluice_source_retained_wal_bytes', labels),
      ).toBeGreaterThanOrEqual(0)
      expect(sampleValue(await scrape(), 'sluice_sources_held')).toBe(1)

      await database.db.query(
        'create table metered (id int primary key, name text)',
      )
      const shapeUrl = (params: Record<string, string>) =>
        `http://127.0.0.1:${engine.port}/v1/shape?${new URLSearchParams({ table: 'metered', ...params })}`
      const readToEnd = (where: Record<string, string>, from: ShapePosition) =>
        readShapeToEnd(shapeUrl, where, from)
      const all = await readToEnd({}, { offset: '-1' })
      await readToEnd({ where: 'id > 2' }, { offset: '-1' })
      expect(sampleValue(await scrape(), 'sluice_source_shapes', labels)).toBe(
        2,
      )
      await database.db.query(
        "insert into metered values (1, 'a'), (2, 'b'), (3, 'c')",
      )
      await database.db.query("update metered set name = 'd' where id = 3")
      await database.db.query('delete from metered where id = 1')
      await expect
        .poll(
          async () =>
            sampleValue(await scrape(), 'sluice_source_changes_total', labels),
          WAIT,
        )
        .toBe(5)
      expect(
        sampleValue(await scrape(), 'sluice_source_log_bytes', labels),
      ).toBeGreaterThan(0)

      const end = await readToEnd({}, all)
      const live = waitLive(shapeUrl, end)
      await expect
        .poll(
          async () =>
            sampleValue(await scrape(), 'sluice_source_live_clients', labels),
          WAIT,
        )
        .toBe(1)
      await live.end()

      const text = await scrape()
      for (const name of [
        'nodejs_eventloop_lag_p99_seconds',
        'process_resident_memory_bytes',
        'nodejs_heap_size_used_bytes',
        'process_open_fds',
      ])
        expect(sampleValue(text, name), name).toBeGreaterThan(0)
      // No connection string or password in the exposition.
      expect(text).not.toContain(database.url)
      expect(text).not.toContain('postgres://')
    } finally {
      await engine.stop()
      await database.db.query('drop table if exists metered')
    }
  }, 90_000)
})
