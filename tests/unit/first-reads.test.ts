// The sync waits for the first screen's reads (first-reads.ts): asked before any screen has
// rendered, it must keep waiting, or the sync's start-up runs ahead of those reads.
import { expect, it } from 'vitest'
import { firstReadsShown } from '../../src/app/db/tab/first-reads.ts'

it('does not count a screen as shown before any of its hooks has rendered', async () => {
  let shown = false
  void firstReadsShown().then(() => (shown = true))
  // An answer is given at once when there is one (settle resolves in the promise's executor),
  // so its callback would have run after these two turns of the microtask queue.
  await Promise.resolve()
  await Promise.resolve()
  expect(shown).toBe(false)
})
