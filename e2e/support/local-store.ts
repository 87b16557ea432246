// What the e2e specs wait on about a page's local store.
import { expect, type Page } from '@playwright/test'

/**
 * A first visit's store is written back to IndexedDB (and remembered as synced) just after its
 * first screen shows (src/app/db/tab/first-sync.ts); a reload before that is a first visit
 * again.
 */
export async function storeSaved(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(
        () => performance.getEntriesByName('sluice:store-saved').length,
      ),
    )
    .toBe(1)
}
