// The wizard's provider lists against the fakes, connected with personal tokens: sorted, every
// page followed, 401 when not connected (or connected as someone else), 502 when the provider
// fails; and the personal token itself: checked before it is stored, sealed at rest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, signInLocally, type App } from '../support/app.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import { startFakeNeon, type FakeNeon } from '../support/fake-neon.ts'
import {
  startFakeSupabase,
  type FakeSupabase,
} from '../support/fake-supabase.ts'
import { connectionOf, putToken } from '../support/providers.ts'

const database = useControlPlaneDatabase()
let supabase: FakeSupabase
let neon: FakeNeon
let app: App
let allProjects: Parameters<FakeNeon['seed']>[0]['projects'] = []

const SUPABASE_TOKEN = 'sbp_0123456789abcdef0123456789abcdef01234567'
const NEON_KEY =
  'napi_abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuv'

const names = (list: unknown) => (list as { name: string }[]).map((x) => x.name)

beforeAll(async () => {
  supabase = await startFakeSupabase()
  neon = await startFakeNeon()
  // Personal tokens only: no client id, so OAuth is off and the token path is the one tested.
  app = buildApp(database.db, {
    SUPABASE_API_URL: supabase.url,
    NEON_API_URL: neon.env.NEON_API_URL,
  })
  supabase.addPersonalToken(SUPABASE_TOKEN)
  neon.addPersonalToken(NEON_KEY)
  supabase.seed({
    pageSize: 2,
    organizations: [
      { id: '2', slug: 'zeta', name: 'Zeta' },
      { id: '1', slug: 'acme', name: 'Acme' },
    ],
    projects: {
      acme: ['e', 'b', 'd', 'a', 'c'].map((n) => ({
        ref: `ref${n}`,
        name: `Project ${n}`,
        region: 'eu-west-1',
      })),
    },
  })
  const endpoint = { host: '127.0.0.1', port: 5432 }
  allProjects = ['e', 'b', 'd', 'a', 'c'].map((n) => ({
    id: `p-${n}`,
    name: `Project ${n}`,
    created_at: `2026-01-0${n.charCodeAt(0) - 96}T00:00:00Z`,
    branches: [
      { id: 'br-z', name: 'zz-feature', databases: [], roles: [], endpoint },
      {
        id: 'br-main',
        name: 'production',
        default: true,
        databases: [
          { id: 2, name: 'shop', owner_name: 'shop_owner' },
          { id: 1, name: 'neondb', owner_name: 'neondb_owner' },
        ],
        roles: [
          { name: 'shop_owner', password: 'x' },
          { name: 'neondb_owner', password: 'y' },
        ],
        endpoint,
      },
      { id: 'br-a', name: 'aa-dev', databases: [], roles: [], endpoint },
    ],
  }))
  neon.seed({ pageSize: 2, projects: allProjects })
})
afterAll(async () => {
  await supabase.close()
  await neon.close()
})

async function connected() {
  const signedIn = await signInLocally(app)
  expect(
    (await putToken(signedIn.browser, 'supabase', SUPABASE_TOKEN)).status,
  ).toBe(200)
  expect(
    (await putToken(signedIn.browser, 'neon', ` ${NEON_KEY} `)).status,
  ).toBe(200)
  return signedIn
}

describe('personal tokens', () => {
  it('stores a token the provider accepts, sealed: the row holds no token text', async () => {
    const { browser, user } = await signInLocally(app)
    const response = await putToken(browser, 'supabase', SUPABASE_TOKEN)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      provider: 'supabase',
      method: 'token',
      created_at: expect.any(String),
    })
    expect(await connectionOf(browser, 'supabase')).toMatchObject({
      method: 'token',
    })

    const { rows } = await database.db.query<{ raw: string }>(
      `select t::text as raw from provider_connections t where user_id = $1`,
      [user.id],
    )
    expect(rows).toHaveLength(1)
    const hex = Buffer.from(SUPABASE_TOKEN).toString('hex')
    expect(rows[0]?.raw).not.toContain(SUPABASE_TOKEN)
    expect(rows[0]?.raw).not.toContain(hex)
  })

  it.each([
    ['supabase', 'Supabase refused this token.'],
    ['neon', 'Neon refused this token.'],
  ] as const)(
    'refuses a %s token the provider refuses, storing nothing',
    async (provider, message) => {
      const { browser } = await signInLocally(app)
      const response = await putToken(browser, provider, 'not-a-real-token')
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ message })
      expect(await connectionOf(browser, provider)).toBeNull()
    },
  )

  it('turns a token revoked at the provider into 401 and forgets the connection', async () => {
    const { browser } = await signInLocally(app)
    const token = 'napi_soon_revoked_0123456789'
    neon.addPersonalToken(token)
    expect((await putToken(browser, 'neon', token)).status).toBe(200)
    neon.revokeToken(token)
    expect((await browser.get('/api/public/neon/projects')).status).toBe(401)
    expect(await connectionOf(browser, 'neon')).toBeNull()
  })

  it('bounds the token', async () => {
    const { browser } = await signInLocally(app)
    expect((await putToken(browser, 'neon', 'x'.repeat(1025))).status).toBe(400)
    expect((await putToken(browser, 'neon', '   ')).status).toBe(400)
  })
})

describe('Supabase lists', () => {
  it('answers organizations sorted by name, ids being slugs', async () => {
    const { browser } = await connected()
    const response = await browser.get('/api/public/supabase/organizations')
    expect(await response.json()).toEqual([
      { id: 'acme', name: 'Acme' },
      { id: 'zeta', name: 'Zeta' },
    ])
  })

  it("answers an organization's projects from every page, sorted by name", async () => {
    const { browser } = await connected()
    const response = await browser.get(
      '/api/public/supabase/organizations/acme/projects',
    )
    const projects = (await response.json()) as unknown[]
    expect(names(projects)).toEqual(
      ['a', 'b', 'c', 'd', 'e'].map((n) => `Project ${n}`),
    )
    expect(projects[0]).toEqual({
      id: 'refa',
      name: 'Project a',
      region: 'eu-west-1',
      organization_name: 'Acme',
    })
    expect(
      supabase.calls().filter((c) => c.includes('/projects')).length,
    ).toBeGreaterThan(2)
  })

  it("answers 404 for an organization that is not the user's", async () => {
    const { browser } = await connected()
    const response = await browser.get(
      '/api/public/supabase/organizations/nope/projects',
    )
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ message: 'Not found at Supabase.' })
    const neonMissing = await browser.get(
      '/api/public/neon/projects/p-none/branches',
    )
    expect(neonMissing.status).toBe(404)
  })

  it('answers 401 when not connected, and 400 for a malformed id', async () => {
    const { browser } = await signInLocally(app)
    expect(
      (await browser.get('/api/public/supabase/organizations')).status,
    ).toBe(401)
    const { browser: other } = await connected()
    expect(
      (await other.get('/api/public/supabase/organizations/a%20b/projects'))
        .status,
    ).toBe(400)
  })

  it('answers 502 with a message when Supabase fails', async () => {
    const { browser } = await connected()
    supabase.fail('/v1/organizations', 500)
    try {
      const response = await browser.get('/api/public/supabase/organizations')
      expect(response.status).toBe(502)
      expect(await response.json()).toEqual({
        message: 'Supabase answered 500.',
      })
    } finally {
      supabase.fail('/v1/organizations', null)
    }
  })
})

describe('Neon lists', () => {
  it('answers projects from every cursor page, sorted by name', async () => {
    const { browser } = await connected()
    const projects = (await (
      await browser.get('/api/public/neon/projects')
    ).json()) as unknown[]
    expect(names(projects)).toEqual(
      ['a', 'b', 'c', 'd', 'e'].map((n) => `Project ${n}`),
    )
    expect(projects[0]).toEqual({
      id: 'p-a',
      name: 'Project a',
      created_at: '2026-01-01T00:00:00Z',
    })
  })

  it("lists an organization key's projects through each of its organizations", async () => {
    const { browser } = await connected()
    const project = (id: string, name: string, org_id: string) => ({
      id,
      name,
      org_id,
      created_at: '2026-01-01T00:00:00Z',
      branches: [],
    })
    neon.seed({
      requireOrgId: true,
      organizations: [
        { id: 'org-1', name: 'One' },
        { id: 'org-2', name: 'Two' },
      ],
      projects: [
        project('o1', 'Orange', 'org-1'),
        project('o2', 'Apple', 'org-2'),
        project('o3', 'Mango', 'org-1'),
      ],
    })
    try {
      const response = await browser.get('/api/public/neon/projects')
      expect(names(await response.json())).toEqual(['Apple', 'Mango', 'Orange'])
    } finally {
      neon.seed({ requireOrgId: false, projects: allProjects })
    }
  })

  it('answers branches default first, then by name', async () => {
    const { browser } = await connected()
    const response = await browser.get('/api/public/neon/projects/p-a/branches')
    expect(await response.json()).toEqual([
      { id: 'br-main', name: 'production', primary: true },
      { id: 'br-a', name: 'aa-dev', primary: false },
      { id: 'br-z', name: 'zz-feature', primary: false },
    ])
  })

  it("answers a branch's databases and roles, sorted by name", async () => {
    const { browser } = await connected()
    const base = '/api/public/neon/projects/p-a/branches/br-main'
    expect(await (await browser.get(`${base}/databases`)).json()).toEqual([
      { id: 1, name: 'neondb', owner_name: 'neondb_owner' },
      { id: 2, name: 'shop', owner_name: 'shop_owner' },
    ])
    expect(await (await browser.get(`${base}/roles`)).json()).toEqual([
      { name: 'neondb_owner' },
      { name: 'shop_owner' },
    ])
  })

  it("never lets another user use someone's connection", async () => {
    await connected()
    const { browser } = await signInLocally(app)
    for (const path of [
      '/api/public/neon/projects',
      '/api/public/neon/projects/p-a/branches',
      '/api/public/neon/projects/p-a/branches/br-main/roles',
      '/api/public/supabase/organizations',
    ])
      expect((await browser.get(path)).status).toBe(401)
  })

  it('answers 502 with a message when Neon fails', async () => {
    const { browser } = await connected()
    neon.fail('/projects/p-a/branches', 503)
    try {
      const failed = await browser.get('/api/public/neon/projects/p-a/branches')
      expect(failed.status).toBe(502)
      expect(await failed.json()).toEqual({ message: 'Neon answered 503.' })
    } finally {
      neon.fail('/projects/p-a/branches', null)
    }
  })
})
