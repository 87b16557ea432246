// A check sends only what the URL says: never the server's own PGPASSWORD, ~/.pgpass entry or
// other PG* settings. A tiny fake Postgres asks for a cleartext password and records every byte.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { checkDatabase } from '../../src/server/validation/check.ts'

type Session = { startup: Record<string, string>; passwords: string[] }

const SERVER_SECRET = 'server-own-secret-4711'
const PGPASS_SECRET = 'pgpass-secret-0815'

function int32(n: number) {
  const b = Buffer.alloc(4)
  b.writeInt32BE(n)
  return b
}

const authCleartext = Buffer.concat([Buffer.from('R'), int32(8), int32(3)])

function authFailed() {
  const fields = Buffer.from(
    'SFATAL\0C28P01\0Mpassword authentication failed\0\0',
  )
  return Buffer.concat([Buffer.from('E'), int32(fields.length + 4), fields])
}

/** Answers startup with a cleartext password request, then refuses the login. */
function fakePostgres(sessions: Session[], bytes: Buffer[]): Server {
  return createServer((socket) => {
    const session: Session = { startup: {}, passwords: [] }
    sessions.push(session)
    let buffer = Buffer.alloc(0)
    let started = false
    socket.on('data', (chunk) => {
      bytes.push(chunk)
      buffer = Buffer.concat([buffer, chunk])
      if (
        !started &&
        buffer.length >= 4 &&
        buffer.length >= buffer.readInt32BE(0)
      ) {
        const length = buffer.readInt32BE(0)
        const pairs = buffer
          .subarray(8, length - 1)
          .toString()
          .split('\0')
        for (let i = 0; i + 1 < pairs.length; i += 2)
          session.startup[pairs[i] ?? ''] = pairs[i + 1] ?? ''
        buffer = buffer.subarray(length)
        started = true
        socket.write(authCleartext)
      }
      if (started && buffer.length >= 5 && buffer[0] === 0x70) {
        const length = buffer.readInt32BE(1)
        if (buffer.length < length + 1) return
        session.passwords.push(
          buffer.subarray(5, length).toString().replace(/\0$/, ''),
        )
        buffer = buffer.subarray(length + 1)
        socket.end(authFailed())
      }
    })
    socket.on('error', () => {})
  })
}

const saved: Record<string, string | undefined> = {}
const pgEnv = {
  PGPASSWORD: SERVER_SECRET,
  PGUSER: 'server_user',
  PGDATABASE: 'server_db',
  PGOPTIONS: '-c work_mem=64kB',
  PGAPPNAME: 'server-app',
  PGREPLICATION: 'database',
  PGSSLMODE: 'require',
}
let dir: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sluice-pgpass-'))
  const pgpass = join(dir, 'pgpass')
  await writeFile(pgpass, `*:*:*:*:${PGPASS_SECRET}\n`)
  await chmod(pgpass, 0o600)
  for (const [name, value] of Object.entries({
    ...pgEnv,
    PGPASSFILE: pgpass,
  })) {
    saved[name] = process.env[name]
    process.env[name] = value
  }
})

afterEach(async () => {
  for (const [name, value] of Object.entries(saved))
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  await rm(dir, { recursive: true, force: true })
})

it('sends the URL settings only, and an empty password when the URL has none', async () => {
  const sessions: Session[] = []
  const bytes: Buffer[] = []
  const server = fakePostgres(sessions, bytes)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as { port: number }
  try {
    const result = await checkDatabase(
      `postgres://visitor@127.0.0.1:${port}/visitor_db?sslmode=disable`,
      { allowPrivate: true },
    )
    expect(result.can_connect_without_replication).toBe(false)
    expect(result.can_connect).toBe(false)
  } finally {
    await new Promise((r) => server.close(r))
  }
  const startups = sessions.map((s) => s.startup)
  const expected = {
    user: 'visitor',
    database: 'visitor_db',
    application_name: 'sluice-readiness-check',
    client_encoding: 'UTF8',
  }
  expect(startups).toHaveLength(2)
  expect(startups).toContainEqual(expected)
  expect(startups).toContainEqual({ ...expected, replication: 'database' })
  expect(sessions.flatMap((s) => s.passwords)).toEqual(['', ''])
  const wire = Buffer.concat(bytes).toString('latin1')
  expect(wire).not.toContain(SERVER_SECRET)
  expect(wire).not.toContain(PGPASS_SECRET)
})
