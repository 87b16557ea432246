// F10: two tabs of one browser profile on a source's page while the control plane writes its
// events; the tab whose store worker holds the database (and so syncs) is closed mid-sync. The
// other tab's worker must take over: its store ends with every row once, its screen follows
// (a new event shows in the event log, a rename in the heading), its queries work, and a
// reload opens it again.
import { waitUntil } from '../support/wait.ts'
import {
  openDashboard,
  settleStores,
  showSource,
  sourceHeading,
  storeEvents,
  storeRead,
} from './dashboard.ts'
import { addWatchedSource, eventLoad } from './event-rows.ts'
import { withBrowserStack } from './browser-stack.ts'
import type { FaultScenario } from './scenario.ts'

export const f10: FaultScenario = {
  id: 'F10',
  title: 'two tabs, the syncing tab closed mid-sync',
  quick: true,
  browser: true,
  async run(ctx) {
    return withBrowserStack('f10', ctx.log, async ({ db, server, browser }) => {
      const dashboard = await openDashboard(browser, server.url)
      const sourceId = await addWatchedSource(db, dashboard.teamId, 'two-tabs')
      const first = await showSource(dashboard, sourceId, 'two-tabs')
      await waitUntil(
        'the first tab to hold the store',
        async () => (await storeEvents(first, sourceId)) !== null,
      )
      const second = await showSource(dashboard, sourceId, 'two-tabs')
      if ((await storeEvents(second, sourceId)) !== null)
        throw new Error('both tabs hold the store')
      const load = eventLoad(db, sourceId)
      // Mid-sync: rows of the load are arriving in the first tab's store.
      await waitUntil(
        'rows of the load to reach the store',
        async () => ((await storeEvents(first, sourceId))?.length ?? 0) >= 30,
      )
      await first.close()
      const closed = performance.now()
      ctx.log(`F10: syncing tab closed after ${load.written} rows written`)
      await waitUntil(
        'the second tab to hold the store',
        async () => (await storeEvents(second, sourceId)) !== null,
      )
      const tookOver = Math.round(performance.now() - closed)
      const atTakeover = load.written
      await waitUntil(
        'writes after the takeover',
        () => load.written >= atTakeover + 20,
      )
      await load.stop()
      const result = await settleStores([second], db, sourceId, closed)
      // The tab's screen follows its own worker now, without a reload. Its live queries were
      // set up on the closed tab's worker (their views, statements and LISTENs went with it):
      // a new event shows in the event log, which reads no table the rename below touches
      // first, then the rename in the heading.
      await db.query(
        `insert into source_event_logs (source_id, event_name, instance_id)
         values ($1, 'after_takeover', 'fault-harness')`,
        [sourceId],
      )
      await second
        .getByText('after_takeover', { exact: true })
        .first()
        .waitFor({ timeout: 30_000 })
      const renamed = await dashboard.context.request.patch(
        `/api/v1/sources/${sourceId}`,
        { data: { name: 'taken-over' }, headers: { origin: server.url } },
      )
      if (renamed.status() !== 200)
        throw new Error(`the rename answered ${renamed.status()}`)
      await sourceHeading(second, 'taken-over').waitFor({ timeout: 30_000 })
      // Not corrupted: every synced table answers, and the store opens again after a reload
      // (with the same rows, synced on from where it was).
      for (const table of ['users', 'user_teams', 'team_members', 'sources'])
        if (!(await storeRead(second, `select count(*) from ${table}`, [])))
          throw new Error(`the store did not answer for ${table}`)
      await second.reload()
      await sourceHeading(second, 'taken-over').waitFor({ timeout: 60_000 })
      const reopened = await settleStores([second], db, sourceId, closed)
      if (dashboard.pageErrors.length)
        throw new Error(`a page failed: ${dashboard.pageErrors.join('; ')}`)
      if (dashboard.network.maxLive > 1)
        throw new Error(
          `two syncs at once: ${dashboard.network.maxLive} live requests of one shape in flight together`,
        )
      return {
        lost: result.lost + reopened.lost,
        duplicated: result.duplicated + reopened.duplicated,
        recoverMs: reopened.recoverMs === null ? null : result.recoverMs,
        notes: `${result.notes}; the other tab held the store ${tookOver} ms after the close, its screen followed a new event and a rename; reloaded, it holds the same rows`,
      }
    })
  },
}
