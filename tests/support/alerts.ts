// The alert tests' world: a control-plane database, an app whose alert worker is driven by
// the test (runOnce, or the kick a test alert gives it, never its timer), a capturing log,
// and helpers to make a member with a destination on a local receiver. With `smtp`, the app
// has SMTP_URL and the worker a mailer, both on a local SMTP server (smtp-server.ts).
import { afterAll, afterEach, beforeAll, expect } from 'vitest'
import { createMailer } from '../../src/server/alerts/email.ts'
import { AlertWorker } from '../../src/server/alerts/worker.ts'
import type { Db } from '../../src/server/platform/db/database.ts'
import type { Logger } from '../../src/server/platform/log.ts'
import { systemResolver } from '../../src/server/validation/guard.ts'
import {
  buildApp,
  signInLocally,
  ORIGIN,
  TEST_ALERT_SECRET_KEY,
  type App,
  type AppOverrides,
  type Browser,
} from './app.ts'
import { useControlPlaneDatabase } from './database.ts'
import { startSmtpServer, type SmtpServer } from './smtp-server.ts'
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from './webhook-receiver.ts'

/** Retries come quickly in tests; three delays mean four attempts at most. */
const TEST_RETRY_DELAYS_MS = [20, 20, 20]

export type Member = { browser: Browser; teamId: string }

/** The SMTP login the `smtp` world's server is given: it must never show in a log. */
export const SMTP_USER = 'sluice-alerts'
export const SMTP_PASSWORD = 'smtp-pw-never-logged-7c1f'

export function useAlerts(options: { smtp?: boolean } = {}) {
  const database = useControlPlaneDatabase()
  const logged: string[] = []
  const log: Logger = {
    debug: (line) => logged.push(line),
    info: (line) => logged.push(line),
    warn: (line) => logged.push(line),
    error: (line) => logged.push(line),
  }
  const secrets = new Set<string>()
  const receivers: WebhookReceiver[] = []
  let worker: AlertWorker | undefined
  let app: App | undefined
  let smtp: SmtpServer | undefined
  const smtpUrl = () => smtp?.url(SMTP_USER, SMTP_PASSWORD)

  const makeWorker = (allowPrivate: boolean): AlertWorker => {
    const url = smtpUrl()
    return new AlertWorker({
      db: database.db,
      key: TEST_ALERT_SECRET_KEY,
      log,
      targets: { allowPrivate, resolve: systemResolver },
      retryDelaysMs: TEST_RETRY_DELAYS_MS,
      timeoutMs: 5_000,
      origin: ORIGIN,
      mailer: url
        ? createMailer({ url, from: 'alerts@localhost', timeoutMs: 5_000 })
        : undefined,
    })
  }
  const build = (vars: Record<string, string>, deps: AppOverrides = {}): App =>
    buildApp(database.db, vars, { log, ...deps })
  const theApp = (): App => {
    if (!app) throw new Error('the app is built in beforeAll')
    return app
  }
  const member = async (on: App = theApp()): Promise<Member> => {
    const { browser } = await signInLocally(on)
    const me = (await (await browser.get('/api/v1/users/me')).json()) as {
      team_id: string
    }
    return { browser, teamId: me.team_id }
  }
  const receiver = async (): Promise<WebhookReceiver> => {
    const started = await startWebhookReceiver()
    receivers.push(started)
    return started
  }

  const send = async (
    browser: Browser,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }> => {
    const response = await browser.request(path, {
      method,
      headers: { origin: browser.origin, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    return {
      status: response.status,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    }
  }
  const setSource = async (id: string, columns: Record<string, unknown>) => {
    const names = Object.keys(columns)
    if (names.length === 0) return
    const sets = names.map((name, i) => `${name} = $${i + 2}`).join(', ')
    await database.db.query(`update sources set ${sets} where id = $1`, [
      id,
      ...Object.values(columns),
    ])
  }

  beforeAll(async () => {
    if (options.smtp) {
      smtp = await startSmtpServer()
      secrets.add(SMTP_PASSWORD)
    }
    const url = smtpUrl()
    worker = makeWorker(true)
    app = build(url ? { SMTP_URL: url } : {}, { alerts: worker })
  })
  afterEach(() => {
    for (const line of logged)
      for (const secret of secrets) expect(line).not.toContain(secret)
  })
  afterAll(async () => {
    await worker?.stop()
    for (const receiver of receivers) await receiver.close()
    await smtp?.close()
  })

  const helpers = {
    get db(): Db {
      return database.db
    },
    get app(): App {
      return theApp()
    },
    get smtp(): SmtpServer {
      if (!smtp) throw new Error('useAlerts({ smtp: true }) starts it')
      return smtp
    },
    get alerts(): AlertWorker {
      if (!worker) throw new Error('the worker is built in beforeAll')
      return worker
    },
    worker: makeWorker,
    buildApp: build,
    receiver,
    member,
    send,
    /** A member with a destination on a fresh receiver; answers its id and secret. */
    async withDestination() {
      const owner = await member()
      const target = await receiver()
      const created = await send(
        owner.browser,
        'POST',
        destinationsPath(owner.teamId),
        { url: target.url },
      )
      expect(created.status).toBe(201)
      const secret = String(created.body.secret)
      secrets.add(secret)
      return {
        ...owner,
        receiver: target,
        destinationId: String(created.body.id),
        secret,
      }
    },
    /** A source row of the team in the given state (no database behind it: the monitor reads rows). */
    async source(teamId: string, columns: Record<string, unknown> = {}) {
      const { rows } = await database.db.query<{ id: string }>(
        `insert into sources (team_id, region, connection_url, source_secret)
         values ($1, 'us-east-1', 'postgres://u@db.example.com/app', 'secret-abc')
         returning id`,
        [teamId],
      )
      const id = rows[0]?.id ?? ''
      await setSource(id, columns)
      return id
    },
    setSource,
    /** The delivery log of a team, oldest first. */
    async attempts(teamId: string) {
      const { rows } = await database.db.query<{
        event: string
        state: string
        attempt: number
        status_code: number | null
        error: string | null
        delivered: boolean
      }>(
        `select event, state, attempt, status_code, error, delivered
           from alert_delivery_attempts where team_id = $1 order by attempted_at, attempt`,
        [teamId],
      )
      return rows
    },
  }
  return helpers
}

export const destinationsPath = (teamId: string) =>
  `/api/v1/teams/${teamId}/alert-destinations`
