// The admin tool's claimable sources: `npm run admin -- claimable-sources create|list` in
// process (text and --json, bad input exit 2, a failed operation exit 1) and the same under
// /api/admin (with and without the token), against a real database.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminProcess, admin as runAdmin } from '../support/admin-cli.ts'
import { buildApp, type App } from '../support/app.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import {
  createSourceDatabase,
  type SourceDatabase,
} from '../support/sources.ts'

const TOKEN = 'admin-token-for-tests-0123456789'
const database = useControlPlaneDatabase()
const databases: SourceDatabase[] = []
let dataDir: string
let app: App

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'sluice-admin-claims-'))
  app = buildApp(database.db, { SLUICE_ADMIN_TOKEN: TOKEN })
})
afterAll(async () => {
  for (const db of databases) await db.drop()
  await rm(dataDir, { recursive: true, force: true })
})

async function sourceDatabase() {
  const db = await createSourceDatabase()
  databases.push(db)
  return db
}

const admin = (args: string[], env: Record<string, string> = {}) =>
  runAdmin(args, { DATABASE_URL: database.url, DATA_DIR: dataDir, ...env })

type Created = { claim_id: string; source_id: string; claim_url: string }

const SLOW = 120_000

describe('npm run admin -- claimable-sources', () => {
  it(
    'creates one (text and JSON) with its claim URL, and lists them',
    async () => {
      const first = await sourceDatabase()
      const text = await admin([
        'claimable-sources',
        'create',
        '--database-url',
        first.url,
      ])
      expect(text.code).toBe(0)
      const claimId = /Claim id: ([0-9a-f-]{36})/.exec(text.stdout)?.[1] ?? ''
      const sourceId =
        /Created claimable source ([0-9a-f-]{36})/.exec(text.stdout)?.[1] ?? ''
      expect(text.stdout).toBe(
        `Created claimable source ${sourceId}\nClaim id: ${claimId}\n` +
          `Claim URL: http://localhost:5133/claim?uuid=${claimId}\n`,
      )
      expect(text.stdout).not.toContain(first.password)
      const { rows } = await database.db.query<{ team_id: string | null }>(
        `select s.team_id from claimable_sources c join sources s on s.id = c.source_id
          where c.id = $1 and s.id = $2`,
        [claimId, sourceId],
      )
      expect(rows).toEqual([{ team_id: null }])

      const second = await sourceDatabase()
      const json = await admin(
        [
          'claimable-sources',
          'create',
          '--region',
          'eu-west-1',
          '--claim-link',
          'https://example.com/transfer',
          '--json',
        ],
        {
          PUBLIC_URL: 'https://sluice.example.com',
          SOURCE_DATABASE_URL: second.url,
        },
      )
      expect(json).toMatchObject({ code: 0, stderr: '' })
      const created = JSON.parse(json.stdout) as Created
      expect(created.claim_url).toBe(
        `https://sluice.example.com/claim?uuid=${created.claim_id}`,
      )

      const list = await admin(['claimable-sources', 'list'])
      expect(list.code).toBe(0)
      const lines = list.stdout.trim().split('\n')
      expect(lines).toHaveLength(2)
      expect(lines[0]).toMatch(
        new RegExp(
          `^${created.claim_id}  initializing  eu-west-1  .+  unclaimed, expires `,
        ),
      )
      const listed = JSON.parse(
        (await admin(['claimable-sources', 'list', '--json'])).stdout,
      ) as { claim_id: string; claim_link: string | null }[]
      expect(listed.map((c) => c.claim_id)).toEqual([created.claim_id, claimId])
      expect(listed[0]?.claim_link).toBe('https://example.com/transfer')
    },
    SLOW,
  )

  it(
    'takes the database URL from a file (as a process) or SOURCE_DATABASE_URL, out of ps; as an argument it warns',
    async () => {
      const byFile = await sourceDatabase()
      const file = join(dataDir, 'source-database-url')
      await writeFile(file, `${byFile.url}\n`, { mode: 0o600 })
      const args = [
        'claimable-sources',
        'create',
        '--database-url-file',
        file,
        '--json',
      ]
      // What ps shows of the process: these arguments, and the path only.
      expect(args.join(' ')).not.toContain(byFile.password)
      const spawned = await adminProcess(args, {
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
      })
      expect(spawned).toMatchObject({ code: 0, stderr: '' })
      expect(JSON.parse(spawned.stdout)).toMatchObject({
        source_id: expect.any(String),
      })

      const byEnv = await admin(['claimable-sources', 'create', '--json'], {
        SOURCE_DATABASE_URL: (await sourceDatabase()).url,
      })
      expect(byEnv).toMatchObject({ code: 0, stderr: '' })

      const byArgument = await sourceDatabase()
      const warned = await admin([
        'claimable-sources',
        'create',
        '--database-url',
        byArgument.url,
      ])
      expect(warned.code).toBe(0)
      expect(warned.stderr).toBe(
        'warning: --database-url on the command line shows in ps to every user of this machine; use --database-url-file PATH or SOURCE_DATABASE_URL instead\n',
      )

      const both = await admin([
        'claimable-sources',
        'create',
        '--database-url',
        byArgument.url,
        '--database-url-file',
        file,
        '--json',
      ])
      expect(both.code).toBe(2)
      expect(JSON.parse(both.stderr.trim().split('\n').at(-1) ?? '')).toEqual({
        error: {
          kind: 'invalid',
          message: 'give --database-url or --database-url-file, not both',
        },
      })
      const help = await admin(['--help'])
      expect(help.stdout).toContain('--database-url-file PATH')
      expect(help.stdout).toContain('SOURCE_DATABASE_URL')
      expect(help.stdout).toContain(' ps ')
    },
    SLOW,
  )

  it(
    'refuses bad input with exit 2, and fails with exit 1 past the cap',
    async () => {
      const missing = await admin(['claimable-sources', 'create'])
      expect(missing.code).toBe(2)
      expect(missing.stderr).toContain('database_url is required')
      const link = await admin(
        [
          'claimable-sources',
          'create',
          '--claim-link',
          'http://example.com',
          '--json',
        ],
        { SOURCE_DATABASE_URL: 'postgres://u:p@db.example.com/x' },
      )
      expect(link.code).toBe(2)
      expect(JSON.parse(link.stderr)).toEqual({
        error: { kind: 'invalid', message: 'claim_link must be an https URL' },
      })
      const unknown = await admin(['claimable-sources', 'list', '--team', 'x'])
      expect(unknown.code).toBe(2)
      expect(unknown.stderr).toContain("Unknown option '--team'")

      const notReady = await sourceDatabase()
      await notReady.admin.query(`alter role ${notReady.role} noreplication`)
      const refused = await admin([
        'claimable-sources',
        'create',
        '--database-url',
        notReady.url,
      ])
      expect(refused.code).toBe(2)
      expect(refused.stderr).toContain('lacks the REPLICATION attribute')
      expect(refused.stderr).not.toContain(notReady.password)

      const full = await admin(
        [
          'claimable-sources',
          'create',
          '--database-url',
          (await sourceDatabase()).url,
        ],
        { MAX_UNCLAIMED_SOURCES: '1' },
      )
      expect(full.code).toBe(1)
      expect(full.stderr).toContain(
        'Too many sources are waiting to be claimed',
      )
    },
    SLOW,
  )
})

const call = (method: string, body?: unknown, token: string | null = TOKEN) =>
  app.request('http://localhost/api/admin/claimable-sources', {
    method,
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

describe('/api/admin/claimable-sources', () => {
  it('creates and lists with the token, 401 without it, 400 for bad input', async () => {
    expect((await call('GET', undefined, null)).status).toBe(401)
    expect(
      (await call('POST', { database_url: 'postgres://x' }, 'wrong')).status,
    ).toBe(401)
    const bad = await call('POST', { database_url: '' })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ message: 'database_url is required' })

    const db = await sourceDatabase()
    const response = await call('POST', { database_url: db.url })
    expect(response.status).toBe(201)
    const created = (await response.json()) as Created
    expect(created.claim_url).toBe(
      `http://localhost/claim?uuid=${created.claim_id}`,
    )
    const listed = (await (await call('GET')).json()) as { claim_id: string }[]
    expect(listed.map((c) => c.claim_id)).toContain(created.claim_id)
  }, 30_000)
})
