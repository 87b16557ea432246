// F9: the browser goes offline and online 100 times while the control plane writes events of
// the source its dashboard shows. The store must end with exactly the control plane's rows
// (none lost, none twice) and only one sync may ever run: no shape has two live requests at
// once.
import { waitUntil } from '../support/wait.ts'
import {
  OFFLINE_TEXT,
  openDashboard,
  settleStores,
  showSource,
} from './dashboard.ts'
import { addWatchedSource, eventLoad } from './event-rows.ts'
import { withBrowserStack } from './browser-stack.ts'
import type { FaultScenario } from './scenario.ts'

const FLAPS = 100
// In `npm test`: half, so the scenario stays near a minute on a busy machine.
const QUICK_FLAPS = 50

export const f9: FaultScenario = {
  id: 'F9',
  title: 'browser offline/online 100 times during writes',
  quick: true,
  browser: true,
  async run(ctx) {
    return withBrowserStack('f9', ctx.log, async ({ db, server, browser }) => {
      const dashboard = await openDashboard(browser, server.url)
      const { context, network } = dashboard
      const sourceId = await addWatchedSource(db, dashboard.teamId, 'flapping')
      const page = await showSource(dashboard, sourceId, 'flapping')
      // About 50 rows a second: every flap meets new rows, and 100 of them stay a few thousand.
      const load = eventLoad(db, sourceId, 20)
      await waitUntil('the load to write', () => load.written >= 20)
      const flaps = ctx.quick ? QUICK_FLAPS : FLAPS
      for (let flap = 1; flap <= flaps; flap++) {
        await context.setOffline(true)
        await waitUntil('the page to be offline', () =>
          page.evaluate(() => !navigator.onLine),
        )
        const answered = network.answeredShapes
        await context.setOffline(false)
        // The sync is flowing again (the rows keep coming) before the next flap.
        await waitUntil(
          'a shape answer after going online',
          () => network.answeredShapes > answered,
        )
        if (flap % 10 === 0)
          ctx.log(`F9: ${flap} flaps, ${load.written} rows written`)
      }
      const back = performance.now()
      const atEnd = load.written
      await waitUntil(
        'writes after the flaps',
        () => load.written >= atEnd + 20,
      )
      await load.stop()
      const result = await settleStores([page], db, sourceId, back)
      await page.getByText(OFFLINE_TEXT).waitFor({ state: 'hidden' })
      const indicatorMs = Math.round(performance.now() - back)
      if (network.maxLive > 1)
        throw new Error(
          `two syncs at once: ${network.maxLive} live requests of one shape were in flight together`,
        )
      if (dashboard.pageErrors.length)
        throw new Error(`the page failed: ${dashboard.pageErrors.join('; ')}`)
      return {
        ...result,
        notes: `${result.notes}; ${flaps} flaps, ${network.failedShapes} shape requests failed offline, at most ${network.maxLive} live request per shape; indicator cleared ${indicatorMs} ms after the last flap`,
      }
    })
  },
}
