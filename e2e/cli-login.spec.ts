// `sluice auth login`'s page in the dashboard: a terminal's login shown with its code and
// machine, approved for the user's team, after which the terminal collects its token once.
import { expect, test } from './support/fixtures.ts'

test('a terminal’s login approved on its page', async ({
  page,
  signIn,
  playwright,
  baseURL,
}) => {
  await signIn()
  // The terminal: no cookie, no credential.
  const terminal = await playwright.request.newContext({ baseURL })
  try {
    const started = await terminal.post('/api/public/cli-logins', {
      data: { machine: 'build-box' },
    })
    expect(started.status()).toBe(201)
    const login = (await started.json()) as {
      id: string
      poll_secret: string
      user_code: string
      approve_path: string
    }
    const collect = () =>
      terminal.post(`/api/public/cli-logins/${login.id}/collect`, {
        data: { poll_secret: login.poll_secret },
      })
    expect((await collect()).status()).toBe(202)

    await page.goto(login.approve_path)
    await expect(
      page.getByRole('heading', { name: 'Sign in the sluice CLI' }),
    ).toBeVisible()
    await expect(page.getByText('build-box')).toBeVisible()
    await expect(page.getByLabel('Login code')).toHaveText(login.user_code)
    await page.getByRole('button', { name: 'Approve' }).click()
    await expect(
      page.getByText('Approved. Return to your terminal'),
    ).toBeVisible()

    const collected = await collect()
    expect(collected.status()).toBe(200)
    expect(((await collected.json()) as { token: string }).token).toMatch(
      /^sluice_/,
    )
    // Collected: the page says it was approved, and offers nothing more.
    await page.reload()
    await expect(
      page.getByText('This login was approved already.'),
    ).toBeVisible()
    await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0)
  } finally {
    await terminal.dispose()
  }
})
