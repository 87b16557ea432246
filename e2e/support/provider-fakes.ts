// The e2e run's fake Supabase and Neon (e2e/support/server.ts starts them), scripted through
// their /_control endpoints, and what the provider specs share.
import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { expect } from './fixtures.ts'
import { neonUrlFile, supabaseUrlFile } from './paths.ts'

type Fake = 'supabase' | 'neon'

/** Calls one of the fake's control methods (tests/support/fake-supabase.ts, fake-neon.ts). */
export async function control(
  fake: Fake,
  method: string,
  ...args: unknown[]
): Promise<unknown> {
  const base = readFileSync(
    fake === 'supabase' ? supabaseUrlFile : neonUrlFile,
    'utf8',
  )
  const response = await fetch(`${base}/_control/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(args),
  })
  if (!response.ok)
    throw new Error(`${fake} _control/${method}: ${response.status}`)
  const text = await response.text()
  return text ? (JSON.parse(text) as unknown) : undefined
}

/**
 * The browser logs every failed request as a console error; a test that makes the provider
 * fail on purpose drops those (and only those) before the fixture checks for errors.
 */
export function allowFailedRequests(
  consoleErrors: string[],
  status: number,
  path: string,
) {
  const expected = (error: string) =>
    error.includes(`status of ${status}`) && error.includes(path)
  const kept = consoleErrors.filter((error) => !expected(error))
  consoleErrors.splice(0, consoleErrors.length, ...kept)
}

/** The wizard's trail, as the page shows it. */
export async function expectBreadcrumbs(page: Page, steps: string[]) {
  await expect(
    page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('listitem'),
  ).toHaveText(['New Source', ...steps])
}
