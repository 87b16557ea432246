// What an operator sees of a real server process: GET /metrics on its own port against a known
// load (a source with two shapes, five replicated changes, a live client, counted requests),
// JSON log lines that parse and carry request ids and never a password, and readiness that
// follows the control plane down and back up.
import { randomBytes } from 'node:crypto'
import { chmod, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import {
  freePort,
  startEmbeddedPostgres,
} from '../../src/server/platform/db/embedded-postgres.ts'
import {
  adminQuery,
  createTestDatabase,
  uniqueName,
  type TestDatabase,
} from '../support/database.ts'
import { sampleValue, samples } from '../support/prometheus.ts'
import {
  startServer,
  waitUntilUp,
  type Server,
} from '../support/server-process.ts'
import {
  readShapeToEnd,
  waitLive,
  type ShapePosition,
} from '../support/shape-reads.ts'

let root: string
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sluice-ops-'))
  await chmod(root, 0o755)
})
afterAll(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 5 })
})

// A busy machine: a source takes seconds to become active, changes a moment to arrive.
const WAIT = { timeout: 30_000, interval: 100 }

/** Stops the process and waits for its exit. */
async function stopServer(server: Server) {
  if (server.child.exitCode !== null) return
  server.child.kill('SIGTERM')
  await server.exited
}

describe('metrics and JSON logs of a server under a known load', () => {
  let control: TestDatabase
  let server: Server
  let base: string
  let metricsUrl: string
  const role = uniqueName('ops_role')
  const sourceDb = uniqueName('ops_db')
  // Characters a URL must encode, so both its raw and encoded forms are looked for.
  const password = `Ops-${randomBytes(8).toString('hex')}:/@x`

  beforeAll(async () => {
    control = await createTestDatabase()
    await adminQuery(
      `create role ${role} login replication password '${password}'`,
    )
    await adminQuery(`create database ${sourceDb} owner ${role}`)
    const port = await freePort()
    const metricsPort = await freePort()
    base = `http://localhost:${port}`
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`
    server = startServer({
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      DATA_DIR: join(root, 'metrics-data'),
      DATABASE_URL: control.url,
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'debug',
    })
    await waitUntilUp(server, `${base}/api/public/health`)
  }, 90_000)

  afterAll(async () => {
    await stopServer(server)
    await control.drop()
    await adminQuery(`drop database if exists ${sourceDb} with (force)`)
    await adminQuery(`drop role if exists ${role}`)
  })

  const scrape = async () => {
    const response = await fetch(metricsUrl)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
    return response.text()
  }

  it('counts shapes, changes, clients and requests as they happen, and logs JSON lines with request ids and no password', async () => {
    const login = await fetch(`${base}/api/public/auth/local/login`, {
      method: 'POST',
      headers: { origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Operator', email: 'ops@example.com' }),
    })
    expect(login.status).toBe(200)
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
    const me = (await (
      await fetch(`${base}/api/v1/users/me`, { headers: { cookie } })
    ).json()) as { team_id: string }

    const sourceUrl = new URL(
      `postgres://127.0.0.1:${new URL(inject('pgAdminUrl')).port}/${sourceDb}`,
    )
    sourceUrl.username = role
    sourceUrl.password = password
    const created = await fetch(`${base}/api/v1/sources`, {
      method: 'PUT',
      headers: {
        cookie,
        origin: base,
        'content-type': 'application/json',
        'x-request-id': 'create-source-1',
      },
      body: JSON.stringify({
        region: 'eu-west-1',
        team_id: me.team_id,
        database_url: sourceUrl.toString(),
      }),
    })
    expect(created.status).toBe(201)
    expect(created.headers.get('x-request-id')).toBe('create-source-1')
    const source = (await created.json()) as {
      id: string
      source_secret: string
    }
    const labels = { source_id: source.id, region: 'eu-west-1' }

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
    const text = await scrape()
    expect(sampleValue(text, 'sluice_sources_held')).toBe(1)
    expect(sampleValue(text, 'sluice_source_shapes', labels)).toBe(0)
    // Measured on activation: the gauges are there once the reading is.
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

    const sourceDbUrl = new URL(inject('pgAdminUrl'))
    sourceDbUrl.pathname = `/${sourceDb}`
    const user = new pg.Client({ connectionString: sourceDbUrl.toString() })
    await user.connect()
    try {
      await user.query('create table items (id int primary key, name text)')
      await user.query(`alter table items owner to ${role}`)
      const shapeUrl = (params: Record<string, string>) =>
        `${base}/v1/shape?${new URLSearchParams({
          table: 'items',
          source_id: source.id,
          source_secret: source.source_secret,
          ...params,
        })}`
      const readToEnd = (where: Record<string, string>, from: ShapePosition) =>
        readShapeToEnd(shapeUrl, where, from)
      // Two shapes, each read to its end.
      const all = await readToEnd({}, { offset: '-1' })
      await readToEnd({ where: 'id > 2' }, { offset: '-1' })
      await user.query("insert into items values (1, 'a'), (2, 'b'), (3, 'c')")
      await user.query("update items set name = 'd' where id = 3")
      await user.query('delete from items where id = 1')

      await expect
        .poll(
          async () =>
            sampleValue(await scrape(), 'sluice_source_changes_total', labels),
          WAIT,
        )
        .toBe(5)
      const loaded = await scrape()
      expect(sampleValue(loaded, 'sluice_source_shapes', labels)).toBe(2)
      expect(
        sampleValue(loaded, 'sluice_source_log_bytes', labels),
      ).toBeGreaterThan(0)

      // A live request waits on the first shape: one live client while it waits.
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
    } finally {
      await user.end()
    }

    const renamed = await fetch(`${base}/api/v1/sources/${source.id}`, {
      method: 'PATCH',
      headers: { cookie, origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Operated' }),
    })
    expect(renamed.status).toBe(200)

    const after = await scrape()
    // By route pattern, never the raw path: the source's id is in no route label.
    expect(
      sampleValue(after, 'sluice_http_requests_total', {
        route: '/api/v1/sources',
        method: 'PUT',
        status: '201',
      }),
    ).toBe(1)
    const shapeRequests = sampleValue(after, 'sluice_http_requests_total', {
      route: '/v1/shape',
      method: 'GET',
      status: '200',
    })
    expect(shapeRequests).toBeGreaterThanOrEqual(2)
    expect(
      sampleValue(after, 'sluice_http_request_duration_seconds_count', {
        route: '/v1/shape',
        method: 'GET',
        status: '200',
      }),
    ).toBe(shapeRequests)
    expect(
      sampleValue(after, 'sluice_http_requests_total', {
        route: '/api/v1/sources/:id',
        method: 'PATCH',
        status: '200',
      }),
    ).toBe(1)
    for (const sample of samples(after, 'sluice_http_requests_total'))
      expect(sample.labels.route).not.toContain(source.id)
    // The server's own: event-loop delay, memory, open descriptors.
    for (const name of [
      'nodejs_eventloop_lag_p99_seconds',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'process_open_fds',
    ])
      expect(sampleValue(after, name), name).toBeGreaterThan(0)
    // No connection string, no password, no secret in the exposition.
    expect(after).not.toContain(password)
    expect(after).not.toContain(source.source_secret)

    // Every line the process wrote is one JSON object, and the create's lines carry its id.
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.trim() !== '')
    const records = lines.map(
      (line) => JSON.parse(line) as Record<string, unknown>,
    )
    for (const record of records) {
      expect(typeof record.time).toBe('string')
      expect(['debug', 'info', 'warn', 'error']).toContain(record.level)
      expect(typeof record.msg).toBe('string')
    }
    expect(records).toContainEqual(
      expect.objectContaining({
        msg: 'request',
        method: 'PUT',
        path: '/api/v1/sources',
        status: 201,
        request_id: 'create-source-1',
      }),
    )
    // The source's own lines come from the runtime, not from the request that created it.
    const sourceLines = records.filter(
      (r) => typeof r.msg === 'string' && r.msg.includes(source.id),
    )
    expect(sourceLines.length).toBeGreaterThan(0)
    for (const record of sourceLines) expect(record.request_id).toBeUndefined()
    const output = server.output()
    expect(output).not.toContain(password)
    expect(output).not.toContain(encodeURIComponent(password))
    expect(output).not.toContain(source.source_secret)
  }, 120_000)

  it('keeps a sane incoming request id and replaces any other', async () => {
    const kept = await fetch(`${base}/api/public/health`, {
      headers: { 'x-request-id': 'lb-7f3a.42' },
    })
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a.42')
    for (const bad of ['has spaces', 'x'.repeat(129), 'quote"d']) {
      const replaced = await fetch(`${base}/api/public/health`, {
        headers: { 'x-request-id': bad },
      })
      expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    }
    // Every answer carries one, the SPA's and a 404's too.
    const missing = await fetch(`${base}/api/v1/nothing-here`)
    expect(missing.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })
})

describe('readiness', () => {
  it('answers 503 while the control plane is down and 200 once it is back', async () => {
    const dir = join(root, 'ready-pg')
    let postgres = await startEmbeddedPostgres({ dir, database: 'sluice' })
    const port = await freePort()
    const base = `http://localhost:${port}`
    const server = startServer({
      PORT: String(port),
      DATA_DIR: join(root, 'ready-data'),
      DATABASE_URL: postgres.url,
      LOG_LEVEL: 'warn',
    })
    try {
      await waitUntilUp(server, `${base}/api/public/health`)
      const ready = await fetch(`${base}/api/public/ready`)
      expect(ready.status).toBe(200)
      expect(await ready.json()).toEqual({ status: 'ready' })

      await postgres.stop()
      const down = await fetch(`${base}/api/public/ready`)
      expect(down.status).toBe(503)
      expect(await down.json()).toEqual({
        status: 'not_ready',
        reason: 'The control plane is unreachable',
      })
      // Alive all the same: liveness asks nothing of the control plane.
      expect((await fetch(`${base}/api/public/health`)).status).toBe(200)

      postgres = await startEmbeddedPostgres({
        dir,
        database: 'sluice',
        port: postgres.port,
      })
      await expect
        .poll(async () => (await fetch(`${base}/api/public/ready`)).status, {
          timeout: 30_000,
          interval: 200,
        })
        .toBe(200)
    } finally {
      await stopServer(server)
      await postgres.stop()
    }
  }, 120_000)
})
