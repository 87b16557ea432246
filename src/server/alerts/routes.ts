// /api/v1/teams/{teamId}/alert-destinations and /alert-settings: a team's webhooks, email
// addresses and thresholds, for its members (mounted by teams.ts; another team answers 404 like
// a missing one). POST makes a destination and answers a webhook's secret, the only time it is
// shown (email needs SMTP_URL, else 400); GET lists
// them (never a secret; the dashboard reads the synced shape instead); DELETE removes one;
// POST .../{id}/test queues a test alert to it and kicks the worker, within its rates.
import { alertCalls } from '../../shared/api-calls.ts'
import { Hono, type Context } from 'hono'
import {
  ALERT_DESTINATIONS_MAX_PER_TEAM,
  emailDestinationUrl,
  TEST_ALERT_EVENT,
} from '../../shared/alerts.ts'
import { idSchema } from '../../shared/entities.ts'
import { guardWebhookUrl } from './webhook.ts'
import { enqueueAlert } from './incidents.ts'
import { readAlertSettings, writeAlertSettings } from './settings.ts'
import { requireUser } from '../auth/middleware.ts'
import {
  createDestination,
  deleteDestination,
  getDestination,
  listDestinations,
} from './destinations.ts'
import type { AppDeps, AppEnv } from '../platform/http/context.ts'
import { readJson } from '../platform/http/json.ts'
import { admitAll, tooManyRequests } from '../platform/http/rate-limit.ts'
import type { Limiters } from '../platform/limits.ts'
import { memberTeamId, teamNotFound } from '../teams/member-team.ts'

/**
 * What a destination's row keeps as its url: a webhook URL past the URL rule and the address
 * guard, or `mailto:` and an email address where this server can send email.
 */
async function destinationUrl(
  deps: AppDeps,
  body: { url?: string; email?: string },
): Promise<{ ok: true; url: string } | { ok: false; message: string }> {
  if (body.email !== undefined) {
    if (!deps.env.SMTP_URL)
      return {
        ok: false,
        message:
          'Email alerts are not available: this server has no SMTP server configured (SMTP_URL).',
      }
    return { ok: true, url: emailDestinationUrl(body.email) }
  }
  const url = body.url ?? ''
  const guarded = await guardWebhookUrl(url, {
    allowPrivate: deps.env.allowPrivateDatabaseTargets,
    resolve: deps.databaseChecks.resolve,
  })
  return guarded.ok ? { ok: true, url } : guarded
}

const destinationNotFound = (c: Context) =>
  c.json({ message: 'Alert destination not found' }, 404)

/** `testAlerts`: the rates of test alerts, per destination and per team. */
export const alertDestinationRoutes = (testAlerts: Limiters['testAlerts']) =>
  new Hono<AppEnv>()
    .use(requireUser)
    .post('/', async (c) => {
      const teamId = await memberTeamId(c)
      if (!teamId) return teamNotFound(c)
      const { deps } = c.var
      const body = await readJson(c, alertCalls.createDestination.request)
      if (!body.success) return body.response
      const url = await destinationUrl(deps, body.data)
      if (!url.ok) return c.json({ message: url.message }, 400)
      const created = await createDestination(
        deps.db,
        deps.keys['alert-secrets'],
        {
          teamId,
          url: url.url,
          createdBy: c.var.user.id,
          max: ALERT_DESTINATIONS_MAX_PER_TEAM,
        },
      )
      if (created.kind === 'no_team') return teamNotFound(c)
      if (created.kind === 'full')
        return c.json(
          {
            message: `This team already has ${ALERT_DESTINATIONS_MAX_PER_TEAM} alert destinations, the most it can have.`,
          },
          409,
        )
      return c.json(
        { ...created.destination, secret: created.secret, txid: created.txid },
        201,
      )
    })
    .get('/', async (c) => {
      const teamId = await memberTeamId(c)
      if (!teamId) return teamNotFound(c)
      return c.json(await listDestinations(c.var.deps.db, teamId))
    })
    .delete('/:destinationId', async (c) => {
      const teamId = await memberTeamId(c)
      if (!teamId) return teamNotFound(c)
      const id = idSchema.safeParse(c.req.param('destinationId'))
      const deleted =
        id.success && (await deleteDestination(c.var.deps.db, teamId, id.data))
      if (!deleted) return destinationNotFound(c)
      return c.json({ txid: deleted.txid })
    })
    .post('/:destinationId/test', async (c) => {
      const teamId = await memberTeamId(c)
      if (!teamId) return teamNotFound(c)
      const id = idSchema.safeParse(c.req.param('destinationId'))
      const { db, alerts } = c.var.deps
      const destination =
        id.success && (await getDestination(db, teamId, id.data))
      if (!destination) return destinationNotFound(c)
      // Each test alert is a delivery, retried, to a host the team chose.
      const rate = await admitAll(
        [testAlerts.perDestination, `destination:${destination.id}`],
        [testAlerts.perTeam, `team:${teamId}`],
      )
      if (!rate.admitted)
        return tooManyRequests(
          'Too many test alerts in a short time; please try again in a minute.',
          rate.retryAfterSeconds,
        )
      await enqueueAlert(db, {
        team_id: teamId,
        source_id: null,
        event: TEST_ALERT_EVENT,
        state: 'firing',
        message: 'This is a test alert from Sluice.',
        incidentId: null,
        occurredAt: new Date(),
        destinationId: destination.id,
      })
      alerts.kick()
      return c.json({ queued: true }, 202)
    })

export const alertSettingsRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get('/', async (c) => {
    const teamId = await memberTeamId(c)
    if (!teamId) return teamNotFound(c)
    const { db, env } = c.var.deps
    return c.json({
      ...(await readAlertSettings(db, teamId)),
      email_available: Boolean(env.SMTP_URL),
    })
  })
  .put('/', async (c) => {
    const teamId = await memberTeamId(c)
    if (!teamId) return teamNotFound(c)
    const body = await readJson(c, alertCalls.saveSettings.request)
    if (!body.success) return body.response
    const { db } = c.var.deps
    await writeAlertSettings(db, teamId, body.data)
    // As stored: a forecast threshold the body left out is the one kept.
    return c.json(await readAlertSettings(db, teamId))
  })
