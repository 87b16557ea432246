// F2: the whole server process killed with SIGKILL while a dashboard shows a source whose events
// the control plane is writing, then started again on the same port and data dir (its
// control-plane Postgres, DATABASE_URL, runs on). The dashboard must show its offline
// state, then catch up by itself with no reload: a rename made while the server was down shows,
// and its store ends with every row once. Nothing the control plane committed is lost: every
// row of the load, and a rename the server answered just before it died.
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

export const f2: FaultScenario = {
  id: 'F2',
  title: 'whole server killed (SIGKILL) with a dashboard open, restarted',
  quick: true,
  browser: true,
  async run(ctx) {
    return withBrowserStack('f2', ctx.log, async ({ db, server, browser }) => {
      const dashboard = await openDashboard(browser, server.url)
      const { context } = dashboard
      const sourceId = await addWatchedSource(db, dashboard.teamId, 'killed')
      const page = await showSource(dashboard, sourceId, 'killed')
      let navigations = 0
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) navigations++
      })
      const load = eventLoad(db, sourceId)
      await waitUntil('the load to write', () => load.written >= 30)
      // A write the server answered: committed, so it must survive the kill.
      const renamed = await context.request.patch(
        `/api/v1/sources/${sourceId}`,
        { data: { name: 'renamed-before' }, headers: { origin: server.url } },
      )
      if (renamed.status() !== 200)
        throw new Error(`the rename answered ${renamed.status()}`)
      await server.kill()
      const killed = performance.now()
      ctx.log(`F2: server killed after ${load.written} rows written`)
      await page.getByText(OFFLINE_TEXT).waitFor({ timeout: 30_000 })
      const noticedMs = Math.round(performance.now() - killed)
      // A change while the server is down, straight in the control plane.
      await db.query(
        `update teams set name = 'Renamed while down' where id = $1`,
        [dashboard.teamId],
      )
      await server.start()
      const restarted = performance.now()
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Renamed while down' })
        .waitFor({ timeout: 30_000 })
      const atRestart = load.written
      await waitUntil(
        'writes after the restart',
        () => load.written >= atRestart + 20,
      )
      await load.stop()
      const result = await settleStores([page], db, sourceId, restarted)
      const landed = await load.landed()
      const { rows } = await db.query<{ name: string }>(
        'select name from sources where id = $1',
        [sourceId],
      )
      if (landed !== load.written || rows[0]?.name !== 'renamed-before')
        throw new Error(
          `the control plane lost committed writes: ${landed} of ${load.written} rows, name ${rows[0]?.name}`,
        )
      if (navigations > 0)
        throw new Error(`the page navigated ${navigations} times`)
      if (dashboard.pageErrors.length)
        throw new Error(`the page failed: ${dashboard.pageErrors.join('; ')}`)
      return {
        ...result,
        notes: `${result.notes}; offline shown ${noticedMs} ms after the kill; no reload`,
      }
    })
  },
}
