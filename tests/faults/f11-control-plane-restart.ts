// F11: the control-plane Postgres stopped in immediate mode and started again on the same data
// dir and port, with two dashboards (two browser profiles) open on a source's page while
// events are written. The server must reconnect by itself, both dashboards resume (a rename
// made after the restart shows in both, no reload) with every row once, and the outage must
// not bring a storm of 5xx answers: the figure is in the notes, and past a bound it fails.
import { startEmbeddedPostgres } from '../../src/server/platform/db/embedded-postgres.ts'
import { waitUntil } from '../support/wait.ts'
import {
  openDashboard,
  settleStores,
  showSource,
  sourceHeading,
} from './dashboard.ts'
import { addWatchedSource, eventLoad } from './event-rows.ts'
import { withBrowserStack } from './browser-stack.ts'
import type { FaultScenario } from './scenario.ts'

// How long Postgres stays down: the fault's length, as F4's partition.
const DOWN_MS = 30_000
const QUICK_DOWN_MS = 5_000

export const f11: FaultScenario = {
  id: 'F11',
  title: 'control-plane Postgres restarted with dashboards open',
  quick: true,
  browser: true,
  async run(ctx) {
    return withBrowserStack('f11', ctx.log, async (stack) => {
      const { db, server, browser } = stack
      const one = await openDashboard(browser, server.url)
      const two = await openDashboard(browser, server.url, one.user)
      const sourceId = await addWatchedSource(db, one.teamId, 'restarted')
      const pages = [
        await showSource(one, sourceId, 'restarted'),
        await showSource(two, sourceId, 'restarted'),
      ]
      const load = eventLoad(db, sourceId)
      await waitUntil('the load to write', () => load.written >= 20)
      const errorsBefore =
        one.network.serverErrors.length + two.network.serverErrors.length
      await stack.postgres.crash()
      const downMs = ctx.quick ? QUICK_DOWN_MS : DOWN_MS
      ctx.log(`F11: Postgres stopped after ${load.written} rows written`)
      await new Promise((r) => setTimeout(r, downMs))
      stack.postgres = await startEmbeddedPostgres({
        dir: stack.postgresDir,
        database: 'sluice',
        port: stack.postgres.port,
      })
      const restarted = performance.now()
      // The server is back on its database: a write through it works.
      await waitUntil(
        'a rename through the server to work',
        async () => {
          const response = await one.context.request.patch(
            `/api/v1/sources/${sourceId}`,
            {
              data: { name: 'renamed-after' },
              headers: { origin: server.url },
            },
          )
          return response.status() === 200
        },
        60_000,
      )
      const since = () => `${Math.round(performance.now() - restarted)} ms`
      ctx.log(
        `F11: a rename through the server worked ${since()} after the restart`,
      )
      const serverErrors =
        one.network.serverErrors.length +
        two.network.serverErrors.length -
        errorsBefore
      for (const page of pages)
        await sourceHeading(page, 'renamed-after').waitFor({ timeout: 45_000 })
      ctx.log(`F11: both dashboards showed it ${since()} after the restart`)
      const atRestart = load.written
      await waitUntil(
        'writes after the restart',
        () => load.written >= atRestart + 20,
      )
      await load.stop()
      ctx.log(`F11: the load stopped ${since()} after the restart`)
      const result = await settleStores(pages, db, sourceId, restarted)
      const landed = await load.landed()
      if (landed !== load.written)
        throw new Error(
          `the control plane holds ${landed} of the ${load.written} rows it committed`,
        )
      const errors = [...one.pageErrors, ...two.pageErrors]
      if (errors.length) throw new Error(`a page failed: ${errors.join('; ')}`)
      // Two dashboards of ten shapes each (a source page follows its log and four figure tables),
      // backing off (the app's live-sync backoff) or waiting on the probe:
      // well under this in any outage of half a minute.
      if (serverErrors > MAX_SERVER_ERRORS)
        throw new Error(
          `a storm of ${serverErrors} 5xx answers in ${downMs} ms down`,
        )
      return {
        ...result,
        notes: `${result.notes}; down ${downMs} ms; the browsers got ${serverErrors} 5xx answers meanwhile`,
      }
    })
  },
}

const MAX_SERVER_ERRORS = 400
