// Dashboards in Debian's Chromium (scripts/chromium.ts) driven by the Playwright library, for
// the browser faults (F2, F9, F10, F11): signed in through the real local sign-in as e2e does,
// a source's page open, its local store read through the store's worker (the app's own direct
// requests, src/app/db/tab/direct-requests.ts), and the network its pages use watched.
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Page,
  type Request,
} from '@playwright/test'
import { randomUUID } from 'node:crypto'
import { chromiumLaunchOptions } from '../../scripts/chromium.ts'
import {
  DIRECT_REQUESTS,
  NOT_HELD_HERE,
} from '../../src/app/db/shared/worker-messages.ts'
import type { Db } from '../../src/server/platform/db/database.ts'
import { waitUntil } from '../support/wait.ts'
import { compareEvents, eventTruth, EVENTS_SQL } from './event-rows.ts'
import type { FaultResult } from './scenario.ts'

/** The dashboard's offline indicator (src/app/components/offline-indicator.tsx). */
export const OFFLINE_TEXT = 'Offline, showing last-known data'

export function launchChromium(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions)
}

export type User = { name: string; email: string }

export type Dashboard = {
  /** One browser profile: its pages share the session and the local store. */
  context: BrowserContext
  user: User
  teamId: string
  network: NetworkWatch
  /** Uncaught errors in its pages. */
  pageErrors: string[]
}

/**
 * A new browser profile signed in as `user` (a new one if not given). Service workers are
 * blocked: Playwright's offline switch does not cover their fetches, and none of the faults
 * is about the app shell.
 */
export async function openDashboard(
  browser: Browser,
  url: string,
  user: User = newUser(),
): Promise<Dashboard> {
  const context = await browser.newContext({
    baseURL: url,
    serviceWorkers: 'block',
  })
  const pageErrors: string[] = []
  context.on('weberror', (e) =>
    pageErrors.push(
      `${e.error().message} ${e.error().stack ?? ''}`.slice(0, 1500),
    ),
  )
  const network = watchNetwork(context)
  const login = await context.request.post('/api/public/auth/local/login', {
    data: user,
    headers: { origin: url },
  })
  if (login.status() !== 200)
    throw new Error(`local sign-in answered ${login.status()}`)
  const teams = (await (await context.request.get('/api/v1/teams')).json()) as {
    id: string
  }[]
  const teamId = teams[0]?.id
  if (!teamId) throw new Error('the signed-in user has no team')
  return { context, user, teamId, network, pageErrors }
}

function newUser(): User {
  const id = randomUUID().slice(0, 8)
  return { name: `Fay ${id}`, email: `fay-${id}@example.com` }
}

/** A new tab on the source's page, once it shows the source's name. */
export async function showSource(
  dashboard: Dashboard,
  sourceId: string,
  name: string,
): Promise<Page> {
  const page = await dashboard.context.newPage()
  await page.goto(`/teams/${dashboard.teamId}/${sourceId}`)
  await sourceHeading(page, name).waitFor({ timeout: 60_000 })
  return page
}

/** The source page's title (spec: 'Source: name or id'). */
export const sourceHeading = (page: Page, name: string) =>
  page.getByRole('heading', { name: `Source: ${name}`, exact: true })

/**
 * The page's store rows for `sql`, read by its own store worker; null when another tab's
 * worker holds the database (only the elected one opens it, and syncs).
 */
export async function storeRead(
  page: Page,
  sql: string,
  params: unknown[],
): Promise<Record<string, unknown>[] | null> {
  const answer = await page.evaluate(
    async ([type, sql, params]) => {
      type Reads = {
        port: MessagePort
        pending: Map<number, (data: unknown) => void>
        next: number
      }
      const page = globalThis as unknown as {
        __sluiceStore?: { worker: Worker }
        __faultReads?: Reads
      }
      if (!page.__faultReads) {
        const worker = page.__sluiceStore?.worker
        if (!worker) throw new Error('this page has started no store worker')
        const { port1, port2 } = new MessageChannel()
        const reads: Reads = { port: port1, pending: new Map(), next: 0 }
        port1.onmessage = ({ data }: MessageEvent<{ id: number }>) => {
          reads.pending.get(data.id)?.(data)
          reads.pending.delete(data.id)
        }
        worker.postMessage({ type }, [port2])
        page.__faultReads = reads
      }
      const reads = page.__faultReads
      const id = reads.next++
      return new Promise<unknown>((resolve) => {
        reads.pending.set(id, resolve)
        reads.port.postMessage({ id, kind: 'read', sql, params })
      })
    },
    [DIRECT_REQUESTS, sql, params] as const,
  )
  const reply = answer as { rows?: Record<string, unknown>[]; error?: string }
  if (reply.rows) return reply.rows
  if (reply.error === NOT_HELD_HERE) return null
  throw new Error(`the store answered: ${reply.error}`)
}

/** The source's events in the page's store; null when another tab's worker holds it. */
export const storeEvents = (page: Page, sourceId: string) =>
  storeRead(page, EVENTS_SQL, [sourceId])

/**
 * Waits (up to `timeoutMs`) until the store each page reads holds exactly the control plane's
 * events of the source, then counts: lost and duplicated summed over the pages, as the last
 * check found them. `since`: when the fault ended (performance.now()).
 */
export async function settleStores(
  pages: Page[],
  db: Db,
  sourceId: string,
  since: number,
  timeoutMs = 30_000,
): Promise<FaultResult> {
  // Each check reads the control plane's rows anew: it writes events of the source itself (its
  // runtime reporting that the source's database cannot be reached), which reach the stores
  // too. Compared with the rows read once before, such an event counted as duplicated.
  let last = {
    truth: await eventTruth(db, sourceId),
    lost: 0,
    duplicated: 0,
    held: [] as string[],
  }
  const matches = async () => {
    const truth = await eventTruth(db, sourceId)
    let lost = 0
    let duplicated = 0
    let same = true
    const held: string[] = []
    for (const page of pages) {
      // A page whose worker does not hold the store (yet: a reload, a takeover) has none.
      const rows = await storeEvents(page, sourceId).catch(
        (error: unknown) => `${error}`,
      )
      const seen = compareEvents(Array.isArray(rows) ? rows : [], truth)
      held.push(
        Array.isArray(rows) ? `${rows.length}` : (rows ?? 'not held here'),
      )
      lost += seen.lost
      duplicated += seen.duplicated
      same &&= seen.same
    }
    last = { truth, lost, duplicated, held }
    return same
  }
  let recoverMs: number | null = null
  await waitUntil(
    "the stores to match the control plane's rows",
    matches,
    timeoutMs,
  ).then(
    () => (recoverMs = Math.round(performance.now() - since)),
    () => {},
  )
  const { truth, lost, duplicated, held } = last
  // Unsettled: what each page's store held at the last look says where it stopped.
  const stores =
    recoverMs === null ? `; the stores held ${held.join(', ')}` : ''
  return {
    lost,
    duplicated,
    recoverMs,
    notes: `${truth.byId.size} rows, checksum ${truth.checksum.slice(0, 12)}${stores}`,
  }
}

type NetworkWatch = {
  /** Most live requests for one shape in flight at once: one sync never has two. */
  readonly maxLive: number
  /** Answers with a status of 500 or more, by path, in order. */
  readonly serverErrors: string[]
  /** Shape requests that got no answer (offline, the server gone). */
  readonly failedShapes: number
  /** Shape answers of 200. */
  readonly answeredShapes: number
}

/** Watches every request of the profile's pages and their store workers. */
function watchNetwork(context: BrowserContext): NetworkWatch {
  const watch = {
    maxLive: 0,
    serverErrors: [] as string[],
    failedShapes: 0,
    answeredShapes: 0,
  }
  // Live requests in flight per page, by shape (path and its team or source).
  const live = new Map<Page | null, Map<Request, string>>()
  const pageOf = (request: Request) => {
    try {
      return request.frame().page()
    } catch {
      return null
    }
  }
  const ended = (request: Request) => live.get(pageOf(request))?.delete(request)
  context.on('request', (request) => {
    const url = new URL(request.url())
    if (!url.pathname.startsWith('/v1/')) return
    if (url.searchParams.get('live') !== 'true') return
    const shape = `${url.pathname}?${url.searchParams.get('team_id') ?? url.searchParams.get('source_id') ?? ''}`
    const page = pageOf(request)
    const inFlight = live.get(page) ?? new Map<Request, string>()
    live.set(page, inFlight)
    inFlight.set(request, shape)
    // Across every page of the profile: each page's store worker could sync.
    const same = [...live.values()].reduce(
      (n, m) => n + [...m.values()].filter((s) => s === shape).length,
      0,
    )
    watch.maxLive = Math.max(watch.maxLive, same)
  })
  context.on('requestfinished', ended)
  context.on('requestfailed', (request) => {
    ended(request)
    if (new URL(request.url()).pathname.startsWith('/v1/')) watch.failedShapes++
  })
  context.on('response', (response) => {
    const path = new URL(response.url()).pathname
    if (response.status() >= 500) watch.serverErrors.push(path)
    if (path.startsWith('/v1/') && response.status() === 200)
      watch.answeredShapes++
  })
  // A closed tab's requests end with it, reported or not.
  context.on('page', (page) => page.on('close', () => live.delete(page)))
  return watch
}
