// The clicks bench:web times, each as a user makes it: the dialog opened and filled,
// then its confirming button clicked. The click is what is timed; `shows` is the text its
// outcome puts on screen (the synced row), or null where the outcome is only a toast that
// repeats from one click to the next.
import type { Locator, Page } from '@playwright/test'

export type ClickAction = {
  name: string
  /** The page it is made on, and how a user gets there from another (a link in the app). */
  path: string
  reach?: (page: Page) => Promise<void>
  /** Opens and fills its dialog for the i-th click; the text the outcome will show. */
  prepare(page: Page, i: number): Promise<string | null>
  /** The button whose click is timed. */
  confirm(page: Page): Locator
  /** Pathname of the REST call the click makes. */
  request: string
  /** Back to where the next click starts. */
  finish(page: Page): Promise<void>
}

const dialog = (page: Page, name: string) => page.getByRole('dialog', { name })

export function renameSource(
  teamId: string,
  sourceId: string,
  tabs: number,
): ClickAction {
  return {
    name: 'rename',
    path: `/teams/${teamId}/${sourceId}`,
    async prepare(page, i) {
      const name = `renamed-${tabs}-${i}`
      await page.getByRole('button', { name: 'Rename' }).click()
      await dialog(page, 'Rename source').getByLabel('Name').fill(name)
      return `Source: ${name}`
    },
    confirm: (page) =>
      dialog(page, 'Rename source').getByRole('button', { name: 'Save' }),
    request: `/api/v1/sources/${sourceId}`,
    finish: (page) =>
      dialog(page, 'Rename source').waitFor({ state: 'hidden' }),
  }
}

export function clearCache(teamId: string, sourceId: string): ClickAction {
  return {
    name: 'clear cache',
    path: `/teams/${teamId}/${sourceId}`,
    async prepare(page) {
      await page.getByRole('button', { name: 'Clear cache' }).click()
      return null
    },
    confirm: (page) =>
      dialog(page, 'Clear cache?').getByRole('button', {
        name: 'Clear cache',
      }),
    request: `/api/v1/sources/${sourceId}/restart`,
    finish: (page) => dialog(page, 'Clear cache?').waitFor({ state: 'hidden' }),
  }
}

/** A setup link: its dialog shows the link once the created row has synced into the store. */
export function createSetupLink(teamId: string, team: string): ClickAction {
  const title = 'Create setup link'
  return {
    name: 'create',
    path: `/teams/${teamId}`,
    reach: (page) =>
      page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: team })
        .click(),
    async prepare(page) {
      await page.getByRole('button', { name: title }).click()
      await dialog(page, title)
        .getByRole('button', { name: 'Create link' })
        .waitFor()
      // The dialog's text node, whole: the probe matches exact texts.
      return 'Send this link to whoever owns the database. It adds one source to this team, once; no sign-in is needed.'
    },
    confirm: (page) =>
      dialog(page, title).getByRole('button', { name: 'Create link' }),
    request: `/api/v1/teams/${teamId}/source-setup-forms`,
    async finish(page) {
      await dialog(page, title).getByRole('button', { name: 'Done' }).click()
      await dialog(page, title).waitFor({ state: 'hidden' })
    },
  }
}
