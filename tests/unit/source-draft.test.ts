import { describe, expect, it, vi } from 'vitest'
import {
  connectionDetails,
  createDraftStore,
  DRAFT_STORAGE_KEY,
  draftDetails,
  EMPTY_DRAFT,
  finalConnectionString,
  withConnectionString,
  type DraftStorage,
  type SourceDraft,
} from '../../src/app/features/sources/draft.ts'

const PASSWORD = 'hunter2-very-secret'
const URL_ = `postgresql://alice:${PASSWORD}@db.example.com:6543/shop?sslmode=require`

/** Web Storage's contract over a Map, standing in for the browser's sessionStorage. */
function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial))
  const storage: DraftStorage = {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  }
  return { storage, items }
}

describe('connectionDetails', () => {
  it('names host, port, database and user, never the password', () => {
    const rows = connectionDetails(URL_)
    expect(rows).toEqual([
      { label: 'Host', value: 'db.example.com' },
      { label: 'Port', value: '6543' },
      { label: 'Database', value: 'shop' },
      { label: 'User', value: 'alice' },
    ])
    expect(JSON.stringify(rows)).not.toContain(PASSWORD)
  })

  it('fills the defaults Postgres uses: port 5432, database named as the user', () => {
    expect(connectionDetails('postgres://bob@db')).toEqual([
      { label: 'Host', value: 'db' },
      { label: 'Port', value: '5432' },
      { label: 'Database', value: 'bob' },
      { label: 'User', value: 'bob' },
    ])
  })

  it('decodes percent-encoded names and unwraps IPv6 hosts', () => {
    expect(connectionDetails('postgres://a%40b:x@[::1]:5433/my%20db')).toEqual([
      { label: 'Host', value: '::1' },
      { label: 'Port', value: '5433' },
      { label: 'Database', value: 'my db' },
      { label: 'User', value: 'a@b' },
    ])
  })

  it('refuses what is not a postgres URL', () => {
    expect(connectionDetails('not a url')).toBeNull()
    expect(connectionDetails('https://db.example.com/app')).toBeNull()
    expect(connectionDetails('postgres://')).toBeNull()
  })
})

describe('the draft', () => {
  it('takes a pasted string trimmed, as a connection-string source', () => {
    const draft = withConnectionString(
      { ...EMPTY_DRAFT, teamId: 't1', project: { id: 'p', name: 'P' } },
      `  ${URL_}\n`,
    )
    expect(draft.type).toBe('connection_string')
    expect(draft.teamId).toBe('t1')
    expect(draft.project).toBeNull()
    expect(finalConnectionString(draft)).toBe(URL_)
  })

  it('has no final connection string while it is empty', () => {
    expect(finalConnectionString(EMPTY_DRAFT)).toBeNull()
    expect(
      finalConnectionString({ ...EMPTY_DRAFT, connectionString: '  ' }),
    ).toBeNull()
  })

  it('summarises a connection-string draft by its URL', () => {
    expect(draftDetails(withConnectionString(EMPTY_DRAFT, URL_))).toEqual(
      connectionDetails(URL_),
    )
  })

  it('summarises provider picks before the details of the built URL', () => {
    const draft: SourceDraft = {
      ...EMPTY_DRAFT,
      type: 'neon',
      project: { id: 'p1', name: 'Shop' },
      branch: { id: 'b1', name: 'main' },
      database: 'shop',
      role: 'alice',
    }
    expect(draftDetails(draft)).toEqual([
      { label: 'Project', value: 'Shop' },
      { label: 'Branch', value: 'main' },
      { label: 'Database', value: 'shop' },
      { label: 'Role', value: 'alice' },
    ])
    expect(
      draftDetails({ ...draft, connectionString: URL_ }).map((r) => r.label),
    ).toEqual(['Project', 'Branch', 'Host', 'Port', 'Database', 'User'])
  })
})

describe('createDraftStore', () => {
  it('keeps choices across a reload but never the connection string', () => {
    const { storage, items } = memoryStorage()
    const store = createDraftStore(storage)
    store.update({
      ...withConnectionString(EMPTY_DRAFT, URL_),
      teamId: 'team-1',
      region: 'eu-west-1',
      name: 'Orders',
    })
    expect(store.get().connectionString).toBe(URL_)
    expect(items.get(DRAFT_STORAGE_KEY)).not.toContain(PASSWORD)
    expect(items.get(DRAFT_STORAGE_KEY)).not.toContain('db.example.com')

    const reloaded = createDraftStore(storage).get()
    expect(reloaded).toEqual({
      ...EMPTY_DRAFT,
      type: 'connection_string',
      teamId: 'team-1',
      region: 'eu-west-1',
      name: 'Orders',
    })
  })

  it("keeps a provider's picks across a reload, never the built string's password", () => {
    const { storage, items } = memoryStorage()
    const store = createDraftStore(storage)
    const picks = {
      type: 'neon' as const,
      teamId: 'team-1',
      region: 'us-east-1' as const,
      project: { id: 'prj-1', name: 'Shop' },
      branch: { id: 'br-1', name: 'main' },
      database: 'app',
      role: 'app_owner',
    }
    store.update({ ...picks, connectionString: URL_ })
    expect(items.get(DRAFT_STORAGE_KEY)).not.toContain(PASSWORD)
    expect(createDraftStore(storage).get()).toEqual({
      ...EMPTY_DRAFT,
      ...picks,
    })

    store.update({
      type: 'supabase',
      organization: { id: 'org-1', name: 'Acme' },
      connectionString: URL_,
    })
    expect(items.get(DRAFT_STORAGE_KEY)).not.toContain(PASSWORD)
    expect(createDraftStore(storage).get().organization).toEqual({
      id: 'org-1',
      name: 'Acme',
    })
  })

  it('reads a copy stored before sources had names, with no name', () => {
    const { name: _, connectionString: __, ...older } = EMPTY_DRAFT
    const stored = memoryStorage({
      [DRAFT_STORAGE_KEY]: JSON.stringify({ ...older, teamId: 'team-1' }),
    })
    expect(createDraftStore(stored.storage).get()).toEqual({
      ...EMPTY_DRAFT,
      teamId: 'team-1',
    })
  })

  it('tells subscribers of each change until they leave', () => {
    const store = createDraftStore(memoryStorage().storage)
    const listener = vi.fn()
    const leave = store.subscribe(listener)
    store.update({ teamId: 'team-1' })
    expect(listener).toHaveBeenCalledTimes(1)
    leave()
    store.update({ teamId: 'team-2' })
    expect(listener).toHaveBeenCalledTimes(1)
    expect(store.get().teamId).toBe('team-2')
  })

  it('is emptied by clear, in memory and in storage', () => {
    const { storage, items } = memoryStorage()
    const store = createDraftStore(storage)
    store.update({ ...withConnectionString(EMPTY_DRAFT, URL_), teamId: 't' })
    store.clear()
    expect(store.get()).toEqual(EMPTY_DRAFT)
    expect(items.has(DRAFT_STORAGE_KEY)).toBe(false)
    expect(createDraftStore(storage).get()).toEqual(EMPTY_DRAFT)
  })

  it('drops a stored copy it cannot read', () => {
    const bad = memoryStorage({ [DRAFT_STORAGE_KEY]: '{"type":"ftp"}' })
    expect(createDraftStore(bad.storage).get()).toEqual(EMPTY_DRAFT)
    const garbage = memoryStorage({ [DRAFT_STORAGE_KEY]: '{not json' })
    expect(createDraftStore(garbage.storage).get()).toEqual(EMPTY_DRAFT)
  })

  it('ignores a stored connection string, should one ever be there', () => {
    const stored = memoryStorage({
      [DRAFT_STORAGE_KEY]: JSON.stringify({
        ...EMPTY_DRAFT,
        type: 'connection_string',
        connectionString: URL_,
      }),
    })
    expect(createDraftStore(stored.storage).get().connectionString).toBeNull()
  })

  it('works without storage (storage disabled)', () => {
    const store = createDraftStore(null)
    store.update({ teamId: 't' })
    expect(store.get().teamId).toBe('t')
  })
})
