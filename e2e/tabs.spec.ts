// Two tabs of one browser share the session cookie and the local store: each follows the
// other's sign-out, and another user's sign-in, to the landing page.
import { collectConsoleErrors, expect, test } from './support/fixtures.ts'

test('signing out in one tab takes the other to the landing page', async ({
  page,
  context,
  signIn,
}) => {
  const user = await signIn()
  await page.goto('/sources')
  await expect(
    page.getByRole('link', { name: `${user.name}'s team` }),
  ).toBeVisible()
  const other = await context.newPage()
  const otherErrors = collectConsoleErrors(other)
  await other.goto('/preferences')
  await expect(
    other.getByRole('link', { name: `${user.name}'s team` }),
  ).toBeVisible()

  await other.getByRole('button', { name: 'Logout' }).click()
  for (const tab of [page, other]) {
    await expect(
      tab.getByRole('link', { name: 'Sign in with GitHub' }),
    ).toBeVisible()
    expect(new URL(tab.url()).pathname).toBe('/')
  }
  expect(otherErrors).toEqual([])
})

test("another user's sign-in in one tab moves the other tab to that user", async ({
  page,
  context,
  signIn,
}) => {
  const first = await signIn()
  await page.goto('/sources')
  await expect(
    page.getByRole('link', { name: `${first.name}'s team` }),
  ).toBeVisible()
  // Through the landing page, which confirms the new session (and identifies its user).
  const visited: string[] = []
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname)
  })
  const other = await context.newPage()
  const otherErrors = collectConsoleErrors(other)
  const second = await signIn(other)
  await other.goto('/sources')
  await expect(
    other.getByRole('link', { name: `${second.name}'s team` }),
  ).toBeVisible()

  await expect(
    page.getByRole('link', { name: `${second.name}'s team` }),
  ).toBeVisible()
  await expect(
    page.getByRole('link', { name: `${first.name}'s team` }),
  ).toHaveCount(0)
  expect(new URL(page.url()).pathname).toBe('/sources')
  expect(visited).toContain('/')
  expect(otherErrors).toEqual([])
})

test('a session ended outside the page (a shape answers 401) takes the tab to the landing page', async ({
  page,
  signIn,
  consoleErrors,
}) => {
  const user = await signIn()
  await page.goto('/sources')
  await expect(
    page.getByRole('link', { name: `${user.name}'s team` }),
  ).toBeVisible()
  // Logout ends the session's open long-polls with 401, as an expiry would.
  const logout = await page.request.post('/api/public/auth/logout', {
    headers: { origin: new URL(page.url()).origin },
  })
  expect(logout.status()).toBe(200)
  await expect(
    page.getByRole('link', { name: 'Sign in with GitHub' }),
  ).toBeVisible()
  expect(new URL(page.url()).pathname).toBe('/')
  // The refused shape requests are what this test is about, and the page may ask who is signed
  // in once more as it leaves (a 401 too, depending on timing); nothing else may log an error.
  const rest = consoleErrors.filter(
    (e) =>
      !(
        e.includes('status of 401') &&
        (e.includes('/v1/') || e.includes('/api/public/auth/user'))
      ),
  )
  consoleErrors.splice(0, consoleErrors.length, ...rest)
})
