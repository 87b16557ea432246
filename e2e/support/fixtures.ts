// The test object every spec uses: fails a test on any console error or uncaught page error,
// and signs in through the real local sign-in endpoint.
import { test as base, expect, type Page } from '@playwright/test'
import { randomUUID } from 'node:crypto'

export type SignedIn = { name: string; email: string }

/** Every console error and uncaught error of `page` from now on, less the protocol's 409s. */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (m) => {
    if (m.type() !== 'error') return
    const url = m.location().url
    const path = url ? new URL(url).pathname : ''
    // A shape answering 409 tells its client to refetch: the protocol, not a fault.
    if (m.text().includes('status of 409') && path.startsWith('/v1/')) return
    errors.push(`${m.text()} (${url})`)
  })
  page.on('pageerror', (e) =>
    errors.push(`${e.message} ${e.stack ?? ''}`.slice(0, 1500)),
  )
  return errors
}

export const test = base.extend<{
  consoleErrors: string[]
  signIn: (page?: Page) => Promise<SignedIn>
}>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors = collectConsoleErrors(page)
      await use(errors)
      expect(errors, 'console errors').toEqual([])
    },
    { auto: true },
  ],
  signIn: async ({ page, baseURL }, use) => {
    await use(async (target = page) => {
      const id = randomUUID().slice(0, 8)
      const user = { name: `Ada ${id}`, email: `ada-${id}@example.com` }
      const response = await target.request.post(
        '/api/public/auth/local/login',
        {
          data: user,
          headers: { origin: baseURL ?? '' },
        },
      )
      expect(response.status()).toBe(200)
      return user
    })
  },
})

export { expect }
