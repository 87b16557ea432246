// docs/migrate-from-electric-cloud.md, run: its shell blocks, in order, as one bash script
// against a real Sluice (its placeholders, the server's URL, a team API token, the database's
// URL and the app's proxy, put in their place), with `sluice` on the PATH as bin/sluice.js.
// A command the guide shows that no longer works fails here.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  runProcess,
  sluiceOnPath,
  startShapeProxy,
  startTokenedServer,
} from '../support/cli.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import {
  createSourceDatabase,
  type SourceDatabase,
  type SourceServer,
} from '../support/sources.ts'

const GUIDE = join(
  import.meta.dirname,
  '../../docs/migrate-from-electric-cloud.md',
)
const APP_PROXY = 'https://your-app.example.com/api/shape'

const control = useControlPlaneDatabase()
let server: SourceServer
let database: SourceDatabase
let proxy: { url: string; stop: () => Promise<void> }
let teamId: string
let token: string

beforeAll(async () => {
  ;({ server, teamId, token } = await startTokenedServer(control.db))
  database = await createSourceDatabase()
  await database.db.query(
    'create table items (id int primary key, title text not null)',
  )
  await database.db.query(`insert into items values (1, 'one')`)
  // The app's proxy, as step 2 of the guide has it, with the team's one source's credentials.
  proxy = await startShapeProxy(server.origin, async () => {
    const { rows } = await control.db.query<{ id: string; secret: string }>(
      'select id, source_secret as secret from sources where team_id = $1 and deleted_at is null',
      [teamId],
    )
    return rows[0] ?? { id: '', secret: '' }
  })
}, 60_000)

afterAll(async () => {
  await proxy?.stop()
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
    .replaceAll(APP_PROXY, proxy.url)
  // `sluice` on the PATH, as the installed package puts it there.
  const bin = sluiceOnPath()
  const ran = await runProcess('bash', ['-euo', 'pipefail', '-c', runnable], {
    env: {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: process.env.HOME,
      XDG_CONFIG_HOME: join(bin, 'config'),
    },
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
}, 60_000)
