// docs/migrate-from-electric-cloud.md, run: its shell blocks, in order, as one bash script
// against a real Sluice (its placeholders, the server's URL, a team API token, the database's
// URL and the app's proxy, put in their place), with `sluice` on the PATH as bin/sluice.js.
// A command the guide shows that no longer works fails here.
import { spawn } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { signInLocally } from '../support/app.ts'
import { newToken } from '../support/api-tokens.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import {
  createSourceDatabase,
  personalTeam,
  startSourceServer,
  type SourceDatabase,
  type SourceServer,
} from '../support/sources.ts'

const GUIDE = join(
  import.meta.dirname,
  '../../docs/migrate-from-electric-cloud.md',
)
const BIN = join(import.meta.dirname, '../../bin/sluice.js')
const APP_PROXY = 'https://your-app.example.com/api/shape'

const control = useControlPlaneDatabase()
let server: SourceServer
let database: SourceDatabase
let proxy: Server
let proxyUrl: string
let teamId: string
let token: string

beforeAll(async () => {
  server = await startSourceServer(control.db)
  const signedIn = await signInLocally(server.app)
  teamId = await personalTeam(control.db, signedIn.user.id)
  token = (await newToken(signedIn.browser, teamId)).token
  database = await createSourceDatabase()
  await database.db.query(
    'create table items (id int primary key, title text not null)',
  )
  await database.db.query(`insert into items values (1, 'one')`)
  // The app's proxy, as step 2 of the guide has it, with the team's one source's credentials.
  proxy = createServer((req, res) => {
    void (async () => {
      const { rows } = await control.db.query<{
        id: string
        source_secret: string
      }>(
        'select id, source_secret from sources where team_id = $1 and deleted_at is null',
        [teamId],
      )
      const url = new URL(req.url ?? '/', 'http://proxy.local')
      const origin = new URL(`${server.origin}/v1/shape`)
      url.searchParams.forEach((value, key) =>
        origin.searchParams.set(key, value),
      )
      origin.searchParams.set('source_id', rows[0]?.id ?? '')
      origin.searchParams.set('secret', rows[0]?.source_secret ?? '')
      const response = await fetch(origin)
      res.writeHead(response.status, { 'content-type': 'application/json' })
      res.end(Buffer.from(await response.arrayBuffer()))
    })().catch(() => {
      res.writeHead(502)
      res.end()
    })
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/shape`
}, 60_000)

afterAll(async () => {
  proxy?.closeAllConnections()
  await new Promise((resolve) => proxy?.close(resolve))
  await server?.stop()
  await database?.drop()
})

/** The guide's ```sh blocks, in order, as one script. */
function guideScript(): string {
  const blocks = [
    ...readFileSync(GUIDE, 'utf8').matchAll(/```sh\n([\s\S]*?)```/g),
  ]
  // Indented blocks (inside a list) keep their indent: bash does not mind.
  return blocks.map((m) => m[1] as string).join('\n')
}

function bash(script: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ status: number | null; out: string; err: string }>(
    (resolve) => {
      // Not spawnSync: the server the script talks to runs in this process.
      const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { env })
      let out = ''
      let err = ''
      child.stdout.on('data', (d: Buffer) => (out += d.toString()))
      child.stderr.on('data', (d: Buffer) => (err += d.toString()))
      child.on('close', (status) => resolve({ status, out, err }))
    },
  )
}

it('runs every command of the migration guide against a real Sluice', async () => {
  const script = guideScript()
  // What the guide shows as placeholders must be there to be replaced.
  for (const placeholder of [
    'export SLUICE_URL=https://sync.example.com',
    'export SLUICE_API_TOKEN=sluice_…',
    'export DATABASE_URL=postgresql://…',
    APP_PROXY,
  ])
    expect(script).toContain(placeholder)
  const runnable = script
    .replace(/^export SLUICE_URL=.*$/m, `export SLUICE_URL=${server.origin}`)
    .replace(
      /^export SLUICE_API_TOKEN=.*$/m,
      `export SLUICE_API_TOKEN=${token}`,
    )
    .replace(
      /^export DATABASE_URL=.*$/m,
      `export DATABASE_URL='${database.url}'`,
    )
    .replaceAll(APP_PROXY, proxyUrl)
  // `sluice` on the PATH, as the installed package puts it there.
  const bin = mkdtempSync(join(tmpdir(), 'sluice-bin-'))
  writeFileSync(join(bin, 'sluice'), `#!/bin/sh\nexec node '${BIN}' "$@"\n`)
  chmodSync(join(bin, 'sluice'), 0o755)
  const ran = await bash(runnable, {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: process.env.HOME,
    XDG_CONFIG_HOME: join(bin, 'config'),
  })
  expect(ran.status, `${ran.err}\n${ran.out}`).toBe(0)
  // The source was made for the team, went active, and answers through the proxy.
  const { rows } = await control.db.query<{
    state: string
    source_secret: string
  }>(
    `select state, source_secret from sources
      where team_id = $1 and project = 'my-app' and environment = 'production'`,
    [teamId],
  )
  expect(rows).toHaveLength(1)
  expect(ran.out).toContain('HTTP/1.1 200')
  expect(ran.out).toContain('"title":"one"')
  // Its secret was printed, then rotated: the one stored now is the rotation's.
  expect(ran.out).toContain('The previous secret works until')
  expect(ran.out).toContain(rows[0]?.source_secret)
})
