// What the last screen showed is kept for the next visit (db/tab/last-screen.ts): only for
// the user the store is synced for, without secrets, and forgotten with the store's hints.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

class MemoryStorage {
  #items = new Map<string, string>()
  getItem(key: string) {
    return this.#items.get(key) ?? null
  }
  setItem(key: string, value: string) {
    this.#items.set(key, String(value))
  }
  removeItem(key: string) {
    this.#items.delete(key)
  }
}

// A visit: the modules as a new page loads them, over the same storage.
async function visit() {
  vi.resetModules()
  const hints = await import('../../src/app/db/tab/hints.ts')
  const screen = await import('../../src/app/db/tab/last-screen.ts')
  return { ...hints, ...screen }
}

const SOURCES = 'select * from sources'
const row = {
  id: 's1',
  name: 'orders',
  source_secret: 'sec_0123456789abcdef',
  created_at: new Date('2026-11-01T10:00:00Z'),
  wal_lag_bytes: 2n ** 60n,
}

// The page's own events (pagehide).
let page: EventTarget

beforeEach(() => {
  vi.useFakeTimers()
  vi.stubGlobal('localStorage', new MemoryStorage())
  page = new EventTarget()
  vi.stubGlobal('addEventListener', page.addEventListener.bind(page))
  vi.stubGlobal('removeEventListener', page.removeEventListener.bind(page))
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('last screen', () => {
  it('the next visit starts from the rows the store gave last, without the secret', async () => {
    const first = await visit()
    first.rememberSyncedFor('u1')
    first.showScreenOf('u1')
    first.keepRows(SOURCES, [row])
    await vi.advanceTimersByTimeAsync(1_000)

    const next = await visit()
    next.showScreenOf('u1')
    expect(next.hasLastScreen('u1')).toBe(true)
    expect(next.lastRows(SOURCES)).toEqual([
      {
        id: 's1',
        name: 'orders',
        source_secret: '',
        created_at: '2026-11-01T10:00:00.000Z',
        wal_lag_bytes: (2n ** 60n).toString(),
      },
    ])
    expect(JSON.stringify(localStorage)).not.toContain('sec_')
  })

  it('shows nothing to another user, or once the store is no longer synced for its user', async () => {
    const first = await visit()
    first.rememberSyncedFor('u1')
    first.showScreenOf('u1')
    first.keepRows(SOURCES, [row])
    await vi.advanceTimersByTimeAsync(1_000)

    const other = await visit()
    other.showScreenOf('u2')
    expect(other.hasLastScreen('u2')).toBe(false)
    expect(other.lastRows(SOURCES)).toBeUndefined()

    // Signed out: the store's hints go, and what the screen showed with them.
    other.rememberStore(false)
    const again = await visit()
    again.rememberSyncedFor('u1')
    again.showScreenOf('u1')
    expect(again.lastRows(SOURCES)).toBeUndefined()
  })

  it('writes nothing before the store is synced (and saved) for the user shown, then what was kept', async () => {
    const first = await visit()
    first.showScreenOf('u1')
    first.keepRows(SOURCES, [{ id: 's1' }])
    await vi.advanceTimersByTimeAsync(1_000)
    page.dispatchEvent(new Event('pagehide'))
    expect(localStorage.getItem(first.LAST_SCREEN)).toBeNull()

    first.rememberSyncedFor('u1')
    first.saveLastScreen()
    const next = await visit()
    next.showScreenOf('u1')
    expect(next.lastRows(SOURCES)).toEqual([{ id: 's1' }])
  })

  it('a sign-out forgets the rows kept, even those still to be written', async () => {
    const first = await visit()
    first.rememberSyncedFor('u1')
    first.showScreenOf('u1')
    first.keepRows(SOURCES, [row])
    // Signed out (in this tab or another) before the write.
    first.rememberStore(false)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(localStorage.getItem(first.LAST_SCREEN)).toBeNull()
  })

  it('a tab closed before the write still leaves the rows', async () => {
    const first = await visit()
    first.rememberSyncedFor('u1')
    first.showScreenOf('u1')
    first.keepRows(SOURCES, [{ id: 's1' }])
    page.dispatchEvent(new Event('pagehide'))
    const next = await visit()
    next.showScreenOf('u1')
    expect(next.lastRows(SOURCES)).toEqual([{ id: 's1' }])
  })

  it('does not keep a read with many rows', async () => {
    const first = await visit()
    first.rememberSyncedFor('u1')
    first.showScreenOf('u1')
    const many = Array.from({ length: 500 }, (_, i) => ({ id: i }))
    first.keepRows('select * from source_event_logs', many)
    first.keepRows(SOURCES, [{ id: 's1' }])
    await vi.advanceTimersByTimeAsync(1_000)
    const next = await visit()
    next.showScreenOf('u1')
    expect(next.lastRows('select * from source_event_logs')).toBeUndefined()
    expect(next.lastRows(SOURCES)).toEqual([{ id: 's1' }])
  })
})
