// Logout leaves nothing of the user in IndexedDB: emptying the store with DELETE kept
// the rows' bytes in Postgres's files, so the store's database itself goes, in every tab, and
// the next sign-in starts a new one.
import type { Page } from '@playwright/test'
import { collectConsoleErrors, expect, test } from './support/fixtures.ts'
import { storeSaved } from './support/local-store.ts'

// PGlite's IndexedDB file system keeps the store in the database named by its mount point
// (src/app/db/worker/store-files.ts).
const STORE_DATABASE = '/pglite/sluice'

const databaseNames = (page: Page) =>
  page.evaluate(async () =>
    (await indexedDB.databases()).map((db) => db.name ?? ''),
  )

/**
 * Which of `needles` some value in any of this profile's IndexedDB databases holds, as text or
 * as UTF-8 bytes (Postgres's pages and WAL, as IDBFS stores them).
 */
function foundInIndexedDb(page: Page, needles: string[]): Promise<string[]> {
  return page.evaluate(async (needles) => {
    const patterns = needles.map((n) => new TextEncoder().encode(n))
    const found = new Set<string>()
    const holds = (bytes: Uint8Array, pattern: Uint8Array) => {
      const first = pattern[0]
      for (let i = bytes.indexOf(first!); i !== -1;) {
        let j = 1
        while (j < pattern.length && bytes[i + j] === pattern[j]) j++
        if (j === pattern.length) return true
        i = bytes.indexOf(first!, i + 1)
      }
      return false
    }
    const look = (value: unknown) => {
      if (value instanceof Uint8Array || value instanceof ArrayBuffer) {
        const bytes = new Uint8Array(value)
        patterns.forEach((p, i) => holds(bytes, p) && found.add(needles[i]!))
      } else if (typeof value === 'string') {
        for (const n of needles) if (value.includes(n)) found.add(n)
      } else if (value && typeof value === 'object') {
        for (const inner of Object.values(value)) look(inner)
      }
    }
    const request = <T>(r: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        r.onsuccess = () => resolve(r.result)
        r.onerror = () => reject(r.error ?? new Error('IndexedDB failed'))
      })
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue
      const db = await request(indexedDB.open(name))
      try {
        for (const store of Array.from(db.objectStoreNames)) {
          const values = await request(
            db.transaction(store).objectStore(store).getAll(),
          )
          look(values)
        }
      } finally {
        db.close()
      }
    }
    return [...found].sort()
  }, needles)
}

async function showsTeam(page: Page, name: string) {
  await expect(
    page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: `${name}'s team` }),
  ).toBeVisible()
}

const signedOut = (page: Page) =>
  expect(page.getByRole('link', { name: 'Sign in with GitHub' })).toBeVisible()

test("Logout removes the store's database; signing in again starts a new one", async ({
  page,
  signIn,
}) => {
  const user = await signIn()
  await page.goto('/sources')
  await showsTeam(page, user.name)
  await storeSaved(page)
  // The search finds the user's rows while they are stored.
  expect(await foundInIndexedDb(page, [user.email, user.name])).toEqual(
    [user.email, user.name].sort(),
  )

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Logout' })
    .click()
  await signedOut(page)
  expect(new URL(page.url()).pathname).toBe('/')
  expect(await databaseNames(page)).not.toContain(STORE_DATABASE)
  expect(await foundInIndexedDb(page, [user.email, user.name])).toEqual([])

  // The same user again: a new store, synced from the server.
  const again = await page.request.post('/api/public/auth/local/login', {
    data: user,
    headers: { origin: new URL(page.url()).origin },
  })
  expect(again.status()).toBe(200)
  await page.goto('/sources')
  await showsTeam(page, user.name)
  await storeSaved(page)
  expect(await databaseNames(page)).toContain(STORE_DATABASE)
})

test('Logout in one tab removes the store for every tab, and the next user gets a new one', async ({
  page,
  context,
  signIn,
}) => {
  const first = await signIn()
  await page.goto('/sources')
  await showsTeam(page, first.name)
  await storeSaved(page)
  // The second tab's worker waits while the first tab's holds the database.
  const other = await context.newPage()
  const otherErrors = collectConsoleErrors(other)
  await other.goto('/preferences')
  await showsTeam(other, first.name)
  expect(await foundInIndexedDb(page, [first.email])).toEqual([first.email])

  await other
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Logout' })
    .click()
  for (const tab of [page, other]) {
    await signedOut(tab)
    expect(new URL(tab.url()).pathname).toBe('/')
  }
  expect(await databaseNames(page)).not.toContain(STORE_DATABASE)
  expect(await foundInIndexedDb(page, [first.email, first.name])).toEqual([])

  // Another user signs in in the tab whose worker held the store: it opens a new one.
  const second = await signIn(page)
  await page.goto('/sources')
  await showsTeam(page, second.name)
  await storeSaved(page)
  expect(
    await foundInIndexedDb(page, [first.email, first.name, second.email]),
  ).toEqual([second.email])
  expect(otherErrors).toEqual([])
})
