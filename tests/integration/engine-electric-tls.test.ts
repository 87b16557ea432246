// ELECTRIC_DATABASE_CA_CERTIFICATE_FILE on a Postgres that speaks TLS with a certificate of
// its own CA: the engine connects over TLS when given that CA, and refuses a server its file
// does not vouch for. A cluster of its own: the run's shared one has no TLS.
import { execFileSync, spawn } from 'node:child_process'
import { chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  freePort,
  startEmbeddedPostgres,
  type RunningPostgres,
} from '../../src/server/platform/db/embedded-postgres.ts'

const WAIT = { timeout: 30_000, interval: 100 }
const TSX = pathToFileURL(resolve('node_modules/tsx/dist/loader.mjs')).href

let dir: string
let tls: string
let server: RunningPostgres

const openssl = (...args: string[]) =>
  execFileSync('openssl', args, { cwd: tls, stdio: 'pipe' })

/** A CA (`name`.crt, .key) that signs nothing yet. */
function makeCa(name: string) {
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.crt`,
  )
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sluice-engine-tls-'))
  tls = join(dir, 'tls')
  await mkdir(tls, { mode: 0o755 })
  makeCa('ca')
  makeCa('other-ca')
  await writeFile(
    join(tls, 'san.ext'),
    'subjectAltName=DNS:localhost,IP:127.0.0.1\n',
  )
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=localhost',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
  )
  openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'san.ext',
    '-out',
    'server.crt',
  )
  // As root, Postgres runs as the `postgres` user, and takes a key only its owner can read.
  if (process.getuid?.() === 0) {
    const id = (flag: string) =>
      Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }))
    await chown(join(tls, 'server.key'), id('-u'), id('-g'))
  }
  server = await startEmbeddedPostgres({
    dir: join(dir, 'pg'),
    port: await freePort(),
    settings: {
      ssl: 'on',
      ssl_cert_file: join(tls, 'server.crt'),
      ssl_key_file: join(tls, 'server.key'),
    },
  })
}, 120_000)

afterAll(async () => {
  await server?.stop()
  await rm(dir, { recursive: true, force: true })
})

async function runEngine(caFile: string) {
  const url = new URL(server.url)
  url.hostname = 'localhost'
  const child = spawn(
    process.execPath,
    ['--import', TSX, resolve('src/engine/cli.ts')],
    {
      cwd: dir,
      stdio: 'pipe',
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: url.toString(),
        ELECTRIC_DATABASE_CA_CERTIFICATE_FILE: join(tls, caFile),
        ELECTRIC_PORT: String(await freePort()),
        ELECTRIC_STORAGE_DIR: join(dir, `storage-${caFile}`),
      },
    },
  )
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((done) =>
    child.on('exit', (code) => done(code)),
  )
  return {
    output: () => output,
    async stop() {
      child.kill('SIGTERM')
      return exited
    },
  }
}

describe('ELECTRIC_DATABASE_CA_CERTIFICATE_FILE', () => {
  it('connects over TLS to a server its CA signed', async () => {
    const engine = await runEngine('ca.crt')
    try {
      await expect.poll(engine.output, WAIT).toContain('database active')
      const client = new pg.Client({ connectionString: server.url })
      await client.connect()
      try {
        const { rows } = await client.query<{ ssl: boolean }>(
          `select s.ssl from pg_stat_ssl s join pg_stat_activity a using (pid)
            where a.application_name = 'sluice-replication'`,
        )
        expect(rows).toEqual([{ ssl: true }])
      } finally {
        await client.end()
      }
    } finally {
      expect(await engine.stop()).toBe(0)
    }
  }, 60_000)

  it('refuses a server the file does not vouch for', async () => {
    const engine = await runEngine('other-ca.crt')
    try {
      await expect
        .poll(engine.output, WAIT)
        .toMatch(/database (reconnecting|error): .*certificate/)
      expect(engine.output()).not.toContain('database active')
    } finally {
      expect(await engine.stop()).toBe(0)
    }
  }, 60_000)
})
