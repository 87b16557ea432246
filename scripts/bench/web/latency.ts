// Commit-to-screen: a write that puts a new text on the page (a source's state in the control
// plane, a row in a source's own database), timed from the commit's return in Node to the text
// in the page's DOM. Both read Date.now() on this machine.
import type { Page } from '@playwright/test'
import { seenText, watchText } from './browser.ts'
import { sleep } from './wait.ts'

export type LatencyResult = {
  requested: number
  samples: number[]
  timeouts: number
  /** Why fewer than `requested` changes were made, if they were. */
  stoppedBy: string | null
}

// Past the engine's 20 s long-poll: a change held until some shape's poll returns still
// measures as its real delay, not as a timeout.
const SAMPLE_TIMEOUT_MS = 30_000

export async function commitToScreen(options: {
  page: Page
  /** Commits a change that shows `text` on the page; resolves once committed. */
  commit: (text: string) => Promise<unknown>
  samples: number
  /** Distinguishes the texts of two runs on one source. */
  prefix: string
  /** A run whose changes are slow stops after this long rather than run for an hour. */
  budgetMs: number
  log: (line: string) => void
}): Promise<LatencyResult> {
  const { page } = options
  const result: LatencyResult = {
    requested: options.samples,
    samples: [],
    timeouts: 0,
    stoppedBy: null,
  }
  const deadline = performance.now() + options.budgetMs
  for (let k = 1; k <= options.samples; k++) {
    if (performance.now() > deadline) {
      result.stoppedBy = `time budget of ${options.budgetMs / 1000} s spent after ${k - 1} changes`
      break
    }
    const text = `${options.prefix}-${k}`
    // Watched before the commit, so the page cannot see the text before it is looked for.
    await watchText(page, text)
    await options.commit(text)
    const committed = Date.now()
    const sighting = await seenText(page, text, SAMPLE_TIMEOUT_MS)
    const delay = sighting ? sighting.epochMs - committed : null
    if (delay === null) result.timeouts++
    else result.samples.push(delay)
    if (delay === null || delay > 1_000)
      options.log(
        `  change ${k}: ${delay === null ? 'timeout' : `${delay} ms`}`,
      )
    else if (k % 25 === 0) options.log(`  ${k} of ${options.samples} changes`)
    // Commits land anywhere in the client's long-poll cycle, not right after each response.
    await sleep(Math.random() * 50)
  }
  return result
}
