// While the control plane is out of reach (stopped, restarting, a connection cut), requests
// answer 503 with a Retry-After and a plain message, and the log gets one line per request,
// not a stack trace: a restart must not read as a storm of server faults (fault F11). What
// counts as "out of reach" is told from the errors a real Postgres and node-postgres give.
import { createServer } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import {
  controlPlaneUnavailable,
  createPool,
} from '../../src/server/platform/db/database.ts'
import type { Logger } from '../../src/server/platform/log.ts'
import { CONTROL_PLANE_UNAVAILABLE_MESSAGE } from '../../src/server/platform/http/errors.ts'
import { buildApp, signInLocally } from '../support/app.ts'
import { useControlPlaneDatabase } from '../support/database.ts'

const control = useControlPlaneDatabase()

// A port that was just free: connecting to it is refused, as to a stopped Postgres.
async function refusedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (typeof address !== 'object' || !address) throw new Error('no port')
  await new Promise((resolve) => server.close(resolve))
  return address.port
}

function recordingLogger() {
  const lines: { level: string; line: string }[] = []
  const at = (level: string) => (line: string) => lines.push({ level, line })
  const log = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  } as Logger
  return { log, lines }
}

const down = createPool(`postgres://sluice@127.0.0.1:1/sluice`)
afterAll(() => down.end())

describe('a control plane out of reach', () => {
  it('answers 503 with a retry-after, and logs a line without a stack', async () => {
    // A session made while it was up, then the same app on a control plane that is gone.
    const up = buildApp(control.db)
    const { browser } = await signInLocally(up)
    const pool = createPool(
      `postgres://sluice@127.0.0.1:${await refusedPort()}/sluice`,
    )
    try {
      const { log, lines } = recordingLogger()
      const app = buildApp(pool, {}, { log })
      const cookie = browser.jar.header('http://localhost/api/v1/users/me')
      const response = await app.request('http://localhost/api/v1/users/me', {
        headers: { cookie: cookie ?? '' },
      })
      expect(response.status).toBe(503)
      expect(response.headers.get('retry-after')).toBe('5')
      expect(await response.json()).toEqual({
        message: CONTROL_PLANE_UNAVAILABLE_MESSAGE,
      })
      const logged = lines.filter((l) => ['warn', 'error'].includes(l.level))
      expect(logged).toEqual([
        {
          level: 'warn',
          line: 'GET /api/v1/users/me: the control plane is unavailable (ECONNREFUSED)',
        },
      ])
    } finally {
      await pool.end()
    }
  })

  it('tells a lost or refused connection from a failed statement', async () => {
    const refused = await down.query('select 1').catch((e: unknown) => e)
    expect(controlPlaneUnavailable(refused)).toBe(true)
    // A connection the server ends (an administrator's or a shutdown's 57P01).
    const client = await control.db.connect()
    // The cut also ends the socket, which node-postgres reports as an 'error' event once the
    // query has failed: a checked-out client with no listener would make it uncaught when the
    // socket's end comes before the release below (seen with files run side by side).
    client.on('error', () => {})
    try {
      const { rows } = await client.query<{ pid: number }>(
        'select pg_backend_pid() as pid',
      )
      const cut = client.query('select pg_sleep(30)').catch((e: unknown) => e)
      await control.db.query('select pg_terminate_backend($1)', [rows[0]!.pid])
      expect(controlPlaneUnavailable(await cut)).toBe(true)
    } finally {
      client.release(true)
    }
    const failed = await control.db
      .query('select * from no_such_table')
      .catch((e: unknown) => e)
    expect(controlPlaneUnavailable(failed)).toBe(false)
    expect(controlPlaneUnavailable(new Error('boom'))).toBe(false)
  })
})
