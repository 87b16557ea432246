// Where a visit's time goes: each visit's `sluice:*` performance marks (src/app), navigation
// timing and the card's sighting, for a first visit and repeat visits online and offline.
// `npm run bench:web:profile [-- --no-build] [--visits N]`: a diagnostic, no targets.
import { spawnSync } from 'node:child_process'
import type { Page } from '@playwright/test'
import {
  openProfile,
  seenText,
  signIn,
  trackShapes,
  waitForLiveShapes,
  waitForStoreSaved,
} from './bench/web/browser.ts'
import { Cleanup } from './bench/web/cleanup.ts'
import { seedSource } from './bench/web/fixtures.ts'
import { startServer } from './bench/web/server.ts'

const SOURCE_NAME = 'bench-orders'
const arg = (name: string) => {
  const at = process.argv.indexOf(name)
  return at < 0 ? undefined : process.argv[at + 1]
}
const VISITS = Number(arg('--visits') ?? 5)
const log = (line: string) => console.error(line)

type Timeline = Record<string, number>

// Scripts typecheck without the DOM library: the entries' fields the profile reads.
type Entry = {
  name: string
  startTime: number
  responseEnd: number
  domContentLoadedEventEnd: number
  loadEventEnd: number
}

async function timeline(page: Page): Promise<Timeline> {
  return page.evaluate(() => {
    const entries = (type: string) =>
      (
        performance as unknown as { getEntriesByType(t: string): Entry[] }
      ).getEntriesByType(type)
    const out: Record<string, number> = {}
    const nav = entries('navigation')[0]
    if (nav) {
      out['nav:responseEnd'] = nav.responseEnd
      out['nav:domContentLoaded'] = nav.domContentLoadedEventEnd
    }
    for (const r of entries('resource')) {
      const url = new URL(r.name)
      const path = url.pathname
      if (/\/assets\/index-.*\.js$/.test(path))
        out['entry-js:end'] = r.responseEnd
      if (path === '/api/public/auth/user') out['auth-user:end'] = r.responseEnd
      // A shape's requests before it goes live: its snapshot, then ("+") the catch-up.
      if (path.startsWith('/v1/') && url.searchParams.get('live') !== 'true') {
        const key = `${path.slice(4)}${url.searchParams.get('offset') === '-1' ? '' : '+'}`
        out[`${key}:start`] ??= r.startTime
        out[`${key}:end`] ??= r.responseEnd
      }
    }
    for (const m of entries('mark'))
      if (m.name.startsWith('sluice:')) out[m.name] ??= m.startTime
    return out
  })
}

async function visit(
  context: Awaited<ReturnType<typeof openProfile>>,
  label: string,
  online: boolean,
  first = false,
): Promise<Timeline> {
  const page = await context.newPage()
  const shapes = trackShapes(page)
  try {
    await page.goto('/sources')
    const sighting = await seenText(page, SOURCE_NAME, 60_000)
    // A visit lasts until its sync has caught up, as a user's would (see visits.ts), and a
    // first one until its store is written back.
    if (online) await waitForLiveShapes(shapes)
    if (first) await waitForStoreSaved(page)
    const t = await timeline(page)
    t['card'] = sighting?.sinceNavigationMs ?? Infinity
    log(
      `${label}: ` +
        Object.entries(t)
          .sort((a, b) => a[1] - b[1])
          .map(([k, v]) => `${k.replace('sluice:', '')}=${v.toFixed(0)}`)
          .join(' '),
    )
    return t
  } finally {
    await page.close()
  }
}

const cleanup = new Cleanup(log)
cleanup.onSignals()
try {
  if (!process.argv.includes('--no-build')) {
    const r = spawnSync('npm', ['run', 'build'], { stdio: ['ignore', 2, 2] })
    if (r.status !== 0) throw new Error('build failed')
  }
  const server = await startServer(cleanup, log)
  const context = await openProfile(cleanup, server.url, [SOURCE_NAME], [])
  const user = await signIn(context, server.url)
  await seedSource(server.db, user.email, SOURCE_NAME)
  await visit(context, 'first', true, true)
  for (let k = 0; k < VISITS; k++) await visit(context, `online ${k + 1}`, true)
  await server.stop()
  for (let k = 0; k < VISITS; k++)
    await visit(context, `offline ${k + 1}`, false)
} catch (error) {
  console.error(error)
  process.exitCode = 1
} finally {
  const errors = await cleanup.run()
  if (errors.length) {
    console.error(errors)
    process.exitCode = 1
  }
}
