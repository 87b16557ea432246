// The `sluice` CLI against a real Sluice (its server, engine and a source database), with a
// team API token: every command in text and `--json`, the database URL read from the named
// environment variable, the exit codes (0 done, 1 failed, 2 usage), and bin/sluice.js as a
// process.
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { BUNDLE_OPTIONS } from '../../scripts/build/server.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run } from '../../src/cli/main.ts'
import { runProcess, startTokenedServer } from '../support/cli.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import {
  createSourceDatabase,
  type SourceDatabase,
  type SourceServer,
} from '../support/sources.ts'

const control = useControlPlaneDatabase()
let server: SourceServer
let database: SourceDatabase
let teamId: string
let token: string

beforeAll(async () => {
  ;({ server, teamId, token } = await startTokenedServer(control.db))
  database = await createSourceDatabase()
  await database.db.query(
    'create table items (id int primary key, title text not null)',
  )
  await database.db.query(`insert into items values (1, 'one')`)
}, 60_000)

afterAll(async () => {
  await server?.stop()
  await database?.drop()
})

type Ran = { code: number; out: string; err: string }

/** One command line, in process, with SLUICE_URL and SLUICE_API_TOKEN set unless `env` says. */
async function sluice(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<Ran> {
  let out = ''
  let err = ''
  const code = await run(args, {
    out: { write: (text) => void (out += text) },
    err: { write: (text) => void (err += text) },
    env: {
      SLUICE_URL: server.origin,
      SLUICE_API_TOKEN: token,
      XDG_CONFIG_HOME: '/nonexistent',
      ...env,
    },
    pause: () => new Promise((resolve) => setImmediate(resolve)),
  })
  return { code, out, err }
}

const json = <T>(ran: Ran): T => {
  expect(ran, ran.err).toMatchObject({ code: 0 })
  return JSON.parse(ran.out) as T
}

type Source = {
  id: string
  team_id: string
  state: string
  project: string | null
  environment: string | null
  source_secret: string
}

describe('the sluice CLI with a team API token', () => {
  let id: string

  it('lists the token’s team', async () => {
    expect(json(await sluice(['teams', 'list', '--json']))).toEqual([
      { id: teamId, name: expect.any(String) },
    ])
    const text = await sluice(['teams', 'list'])
    expect(text.code).toBe(0)
    expect(text.out).toMatch(new RegExp(`^id\\s+name\\n${teamId}\\s`))
  })

  it('creates a source from a URL in the environment, waits until it streams, and reads it', async () => {
    const created = json<Source>(
      await sluice(
        [
          'sources',
          'create',
          '--team',
          teamId,
          '--region',
          'eu-west-1',
          '--database-url-env',
          'BRANCH_DATABASE_URL',
          '--project',
          'my-app',
          '--environment',
          'pr-7',
          '--json',
        ],
        { BRANCH_DATABASE_URL: database.url },
      ),
    )
    expect(created).toMatchObject({
      team_id: teamId,
      project: 'my-app',
      environment: 'pr-7',
    })
    id = created.id
    const waited = await sluice([
      'sources',
      'wait',
      id,
      '--state',
      'active',
      '--timeout',
      '60s',
    ])
    expect(waited, waited.err).toMatchObject({ code: 0 })
    expect(waited.out).toMatch(/state:\s+active/)

    const listed = json<Source[]>(
      await sluice([
        'sources',
        'list',
        '--project',
        'my-app',
        '--environment',
        'pr-7',
        '--json',
      ]),
    )
    expect(listed.map((s) => s.id)).toEqual([id])
    expect(
      json<Source[]>(
        await sluice(['sources', 'list', '--environment', 'pr-8', '--json']),
      ),
    ).toEqual([])
    const table = await sluice(['sources', 'list'])
    expect(table.out).toMatch(
      /^id\s+name\s+team_id\s+region\s+state\s+project\s+environment\n/,
    )
    expect(table.out).toContain(id)
    expect(
      json<Source>(await sluice(['sources', 'get', id, '--json'])).id,
    ).toBe(id)
  }, 60_000)

  it('reads and rotates the secret, which then opens the source’s shapes', async () => {
    const secret = (await sluice(['sources', 'get-secret', id])).out.trim()
    const shape = (s: string) =>
      fetch(
        `${server.origin}/v1/shape?table=items&offset=-1&source_id=${id}&secret=${s}`,
      )
    expect((await shape(secret)).status).toBe(200)
    const rotated = json<{
      source_secret: string
      previous_valid_until: string
    }>(await sluice(['sources', 'rotate-secret', id, '--json']))
    expect(rotated.source_secret).not.toBe(secret)
    expect(
      json<{ source_secret: string }>(
        await sluice(['sources', 'get-secret', id, '--json']),
      ).source_secret,
    ).toBe(rotated.source_secret)
    expect((await shape(rotated.source_secret)).status).toBe(200)
    // Within the grace, the previous secret works too.
    expect((await shape(secret)).status).toBe(200)
  })

  it('clears the cache and deletes the source', async () => {
    const cleared = await sluice(['sources', 'clear-cache', id])
    expect(cleared, cleared.err).toMatchObject({ code: 0 })
    expect(cleared.out).toContain('cleared')
    const deleted = json<{ id: string }>(
      await sluice(['sources', 'delete', id, '--json']),
    )
    expect(deleted.id).toBe(id)
  })

  it('fails with 1 when the server refuses, 2 when used wrongly', async () => {
    const refused = await sluice(['sources', 'list'], {
      SLUICE_API_TOKEN: 'sluice_not-a-token',
    })
    expect(refused.code).toBe(1)
    expect(refused.err).toContain('401')
    expect(refused.err).not.toContain('sluice_not-a-token')
    expect((await sluice(['sources', 'get', crypto.randomUUID()])).code).toBe(1)

    expect((await sluice(['frobnicate'])).code).toBe(2)
    expect((await sluice(['sources', 'list', '--bogus'])).code).toBe(2)
    expect((await sluice(['sources', 'wait', 'x'])).code).toBe(2)
    expect(
      (await sluice(['sources', 'list'], { SLUICE_API_TOKEN: undefined })).code,
    ).toBe(2)
    const unset = await sluice([
      'sources',
      'create',
      '--team',
      teamId,
      '--region',
      'eu-west-1',
      '--database-url-env',
      'NOT_SET_ANYWHERE',
    ])
    expect(unset.code).toBe(2)
    expect(unset.err).toContain('$NOT_SET_ANYWHERE is not set')
    expect((await sluice([])).code).toBe(2)
    expect((await sluice(['--help'])).code).toBe(0)
  })

  it('runs as a process: npx sluice', async () => {
    const env = {
      ...process.env,
      SLUICE_URL: server.origin,
      SLUICE_API_TOKEN: token,
    }
    const ran = await runProcess('npx', ['sluice', 'teams', 'list', '--json'], {
      env,
    })
    expect(ran.status, ran.err).toBe(0)
    expect(JSON.parse(ran.out)).toEqual([
      { id: teamId, name: expect.any(String) },
    ])
    expect(
      (await runProcess('npx', ['sluice', 'frobnicate'], { env })).status,
    ).toBe(2)
  }, 60_000)

  it('is all the packed package holds besides its metadata, and runs with no dependency', async () => {
    const root = join(import.meta.dirname, '../..')
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: root,
        encoding: 'utf8',
      }),
    ) as Array<{ files: Array<{ path: string }> }>
    // The bundle is there once built (npm test builds first; prepack does before a pack).
    const files = packed?.files.map((f) => f.path) ?? []
    expect(files).toEqual(
      expect.arrayContaining(['bin/sluice.js', 'package.json']),
    )
    expect(
      files.filter(
        (f) =>
          ![
            'README.md',
            'bin/sluice.js',
            'dist/server/cli.js',
            'package.json',
          ].includes(f),
      ),
    ).toEqual([])
    // That package, unpacked where no node_modules is: the bundle as the build makes it.
    const dir = mkdtempSync(join(tmpdir(), 'sluice-packed-'))
    mkdirSync(join(dir, 'bin'))
    copyFileSync(join(root, 'bin/sluice.js'), join(dir, 'bin/sluice.js'))
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}')
    await build({
      ...BUNDLE_OPTIONS,
      entryPoints: { cli: join(root, 'src/cli/index.ts') },
      outdir: join(dir, 'dist/server'),
    })
    const ran = await runProcess(
      process.execPath,
      [join(dir, 'bin/sluice.js'), 'teams', 'list', '--json'],
      {
        cwd: dir,
        env: {
          PATH: process.env.PATH,
          SLUICE_URL: server.origin,
          SLUICE_API_TOKEN: token,
        },
      },
    )
    expect(ran.status).toBe(0)
    expect(JSON.parse(ran.out)).toEqual([
      { id: teamId, name: expect.any(String) },
    ])
  }, 60_000)
})
