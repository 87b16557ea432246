// `npm run engine` as a process: it listens on loopback unless told otherwise, and says so
// loudly when it listens further without a secret (it would serve every table its role can
// read to anyone who reaches it).
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { connect } from 'node:net'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../src/server/control/embedded-postgres.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'

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

// One at a time: the CLI's slot name is fixed, and slots are cluster-wide.
async function runEngine(args: string[]) {
  const port = await freePort()
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/engine/cli.ts',
      '--database-url',
      database.url,
      '--data-dir',
      dataDir,
      '--port',
      String(port),
      ...args,
    ],
    { stdio: 'pipe' },
  )
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => resolve(code)),
  )
  await expect
    .poll(() => output, { timeout: 30_000 })
    .toContain('serving the shape API')
  return {
    port,
    output: () => output,
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
      expect(open.output()).toMatch(
        /warning: .*0\.0\.0\.0.* without --secret: anyone who can reach it can read every table/,
      )
    } finally {
      await open.stop()
    }
    const guarded = await runEngine(['--host', '0.0.0.0', '--secret', 's3cret'])
    try {
      expect(guarded.output()).not.toMatch(/warning/i)
    } finally {
      await guarded.stop()
    }
  }, 60_000)
})
