// Every path the app calls by its shared name (src/shared/api-routes.ts, and the paths other
// shared modules name) is one the server has a route for, and every declared call
// (src/shared/api-calls.ts) one it routes for that method: a path or method changed on one side
// only fails here, not in a browser.
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import {
  alertCalls,
  apiTokenCalls,
  claimCalls,
  cliLoginCalls,
  setupFormCalls,
  sourceCalls,
} from '../../src/shared/api-calls.ts'
import * as apiRoutes from '../../src/shared/api-routes.ts'
import {
  API_MOUNTS,
  providerAuthPath,
  shapePath,
  TEAM_RESOURCES,
  SHAPE_PATHS,
} from '../../src/shared/api-routes.ts'
import {
  CLAIM_PATH,
  CLAIMABLE_SOURCES_PATH,
  claimableSourcePath,
} from '../../src/shared/claimable-sources.ts'
import { LIVE_WATCH_PATH } from '../../src/shared/live-watch.ts'
import { ONBOARDING_INTENT_PATH } from '../../src/shared/onboarding.ts'
import {
  publicSetupFormPath,
  setupFormUsePath,
} from '../../src/shared/setup-forms.ts'
import { syncedTableNames } from '../../src/shared/synced-tables.ts'
import { VALIDATE_DATABASE_URL_PATH } from '../../src/shared/validation.ts'
import { buildApp } from '../support/app.ts'
import { useControlPlaneDatabase } from '../support/database.ts'

const database = useControlPlaneDatabase()

/**
 * A copy of the app's routes with every handler answering 200, so asking it a path says
 * whether the server has a route for it (a handler's own 404, or a sign-in's 401, cannot
 * mislead). Middleware (`use`, method ALL) is left out: it answers no path by itself.
 */
function routesOf(app: { routes: { method: string; path: string }[] }): Hono {
  const probe = new Hono()
  for (const route of app.routes)
    if (route.method !== 'ALL') probe.all(route.path, (c) => c.text('route'))
  return probe
}

const routed = async (probe: Hono, path: string) =>
  (await probe.request(path)).status === 200

// Sample ids: each function is called with as many as it takes.
const ids = ['1d6f0b2e-0000-4000-8000-000000000001', 'b', 'c']

/** The exact paths this module names: its constants, and its functions with sample ids. */
function namedPaths(): [string, string][] {
  const skipped = new Set<unknown>([
    API_MOUNTS,
    TEAM_RESOURCES,
    SHAPE_PATHS,
    shapePath,
    providerAuthPath,
  ])
  const paths: [string, string][] = []
  for (const [name, value] of Object.entries(apiRoutes)) {
    if (skipped.has(value)) continue
    if (typeof value === 'string') paths.push([name, value])
    else if (typeof value === 'function')
      paths.push([name, (value as (...a: string[]) => string)(...ids)])
    else throw new Error(`${name}: a path is a string or a function`)
  }
  return paths
}

describe('the REST API’s shared paths', () => {
  it('each has a route on the server', async () => {
    const probe = routesOf(buildApp(database.db))
    const paths: [string, string][] = [
      ...namedPaths(),
      ...syncedTableNames.map((table): [string, string] => [
        `shapePath(${table})`,
        shapePath(table, ids[0]),
      ]),
      ['CLAIMABLE_SOURCES_PATH', CLAIMABLE_SOURCES_PATH],
      ['CLAIM_PATH', CLAIM_PATH],
      ['LIVE_WATCH_PATH', LIVE_WATCH_PATH],
      ['ONBOARDING_INTENT_PATH', ONBOARDING_INTENT_PATH],
      ['VALIDATE_DATABASE_URL_PATH', VALIDATE_DATABASE_URL_PATH],
      ['claimableSourcePath', claimableSourcePath(ids[0]!)],
      ['publicSetupFormPath', publicSetupFormPath(ids[0]!)],
      ['setupFormUsePath', setupFormUsePath(ids[0]!)],
    ]
    const missing: string[] = []
    for (const [name, path] of paths)
      if (!(await routed(probe, new URL(path, 'http://x').pathname)))
        missing.push(`${name}: ${path}`)
    expect(missing).toEqual([])
  })

  it('each declared call has a route for its method and path', async () => {
    const app = buildApp(database.db)
    // As routesOf, but each route answers only its own method.
    const probe = new Hono()
    for (const route of app.routes)
      if (route.method !== 'ALL')
        probe.on(route.method, route.path, (c) => c.text('route'))
    const groups = {
      sourceCalls,
      setupFormCalls,
      alertCalls,
      claimCalls,
      apiTokenCalls,
      cliLoginCalls,
    }
    const missing: string[] = []
    for (const [group, calls] of Object.entries(groups))
      for (const [name, call] of Object.entries(calls)) {
        const path = (call.path as (...a: string[]) => string)(...ids)
        const { status } = await probe.request(path, { method: call.method })
        if (status !== 200)
          missing.push(`${group}.${name}: ${call.method} ${path}`)
      }
    expect(missing).toEqual([])
  })

  it('each mount has routes below it', () => {
    const paths = buildApp(database.db).routes.map((route) => route.path)
    const mounts = [
      ...Object.entries(API_MOUNTS),
      ['providerAuthPath(supabase)', providerAuthPath('supabase')],
      ['providerAuthPath(neon)', providerAuthPath('neon')],
    ]
    const empty = mounts.filter(
      ([, mount]) =>
        !paths.some((path) => path === mount || path.startsWith(`${mount}/`)),
    )
    expect(empty).toEqual([])
  })
})
