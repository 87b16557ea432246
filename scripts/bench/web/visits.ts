// Visits to /sources in one browser profile: the first (sign-in, snapshots, service worker
// install) and the repeat ones a user makes later, timed from navigation start to the moment
// the source's card link is in the DOM.
import type { BrowserContext, Page } from '@playwright/test'
import {
  seenText,
  trackShapes,
  waitForControl,
  waitForLiveShapes,
  waitForStoreSaved,
} from './browser.ts'

const VISIT_TIMEOUT_MS = 60_000

/** Leaves the profile with the row stored (and written to IndexedDB), the worker in control and every shape caught up. */
export async function firstVisit(
  context: BrowserContext,
  sourceName: string,
): Promise<number> {
  const page = await context.newPage()
  try {
    const shapes = trackShapes(page)
    await page.goto('/sources')
    const sighting = await seenText(page, sourceName, VISIT_TIMEOUT_MS)
    if (!sighting) throw new Error(`first visit: no "${sourceName}" card`)
    await waitForControl(page)
    await waitForLiveShapes(shapes)
    // A user stays longer than the moment the first screen takes to be written back.
    await waitForStoreSaved(page)
    return sighting.sinceNavigationMs
  } finally {
    await page.close()
  }
}

/** A page on /sources showing the card, every shape caught up: ready for changes. */
export async function openLive(
  context: BrowserContext,
  sourceName: string,
): Promise<Page> {
  const page = await context.newPage()
  const shapes = trackShapes(page)
  await page.goto('/sources')
  if (!(await seenText(page, sourceName, VISIT_TIMEOUT_MS)))
    throw new Error(`no "${sourceName}" card`)
  await waitForLiveShapes(shapes)
  return page
}

/**
 * Each visit is a new page (the previous one closed, as a user closes a tab): the shell comes
 * from the service worker, the rows from the local store. A visit that never shows the card
 * counts as infinitely slow. Online, a visit lasts until its sync has caught up, as a user's
 * would: a tab closed the moment the card shows would also cut short what the browser does
 * after a page's start (writing back the store, keeping compiled code for the next visit).
 */
export async function repeatVisits(
  context: BrowserContext,
  sourceName: string,
  visits: number,
  log: (line: string) => void,
  { online }: { online: boolean },
): Promise<number[]> {
  const times: number[] = []
  for (let k = 0; k < visits; k++) {
    const page = await context.newPage()
    const shapes = trackShapes(page)
    try {
      // The probe watches the name from the page's first script on (see openProfile).
      await page.goto('/sources')
      const sighting = await seenText(page, sourceName, VISIT_TIMEOUT_MS)
      const link = page.getByRole('link', { name: sourceName })
      if (sighting) await link.waitFor({ state: 'visible' })
      times.push(sighting?.sinceNavigationMs ?? Infinity)
      if (sighting && online) await waitForLiveShapes(shapes)
      log(
        `  visit ${k + 1}: ${sighting ? `${sighting.sinceNavigationMs.toFixed(0)} ms` : 'timeout'}`,
      )
    } finally {
      await page.close()
    }
  }
  return times
}
