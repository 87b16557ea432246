// PUT /api/v1/sources: adds a source, optionally named and given a project and an environment
// (docs/using.md, Adding a source: API clients rely on these answers); mounted by the sources
// router (sources.ts). 201 with the new source and its txid; 200 with the team's existing source
// for that database and region; 400 for a body, URL or host we refuse and for a database that is
// not ready (the UI shows the message after 'Failed to add source: '); 404 for a team the user is
// not in; 409 when the team has its maximum of sources; 429 past the rate of creates per user (or
// API token) and per team, or the limit on readiness checks.
import { sourceCalls } from '../../../shared/api-calls.ts'
import type { Context } from 'hono'
import {
  ALREADY_REGISTERED_MESSAGE,
  type CreateSourceResponse,
} from '../../../shared/sources.ts'
import { getTeam } from '../../teams/teams.ts'
import { rateKeyOf, viewerOf } from '../../auth/viewer.ts'
import type { AppEnv } from '../../platform/http/context.ts'
import { readJson } from '../../platform/http/json.ts'
import {
  tooManyRequests,
  type RateLimiter,
} from '../../platform/http/rate-limit.ts'
import {
  checkSourceReady,
  guardSourceUrl,
  type CheckSettings,
} from './create-checks.ts'
import { createSource } from './create-source.ts'
import {
  createCheckLimiter,
  tooManyChecks,
} from '../../validation/rate-limit.ts'
import type { DatabaseCheckSettings } from '../../validation/settings.ts'

/** Shown after 'Failed to add source: '; the dashboard shows it word for word. */
export const teamFullMessage = (max: number) =>
  `This team already has ${max} sources, the most it can have. Delete a source to add another.`

/** `creates`: the rate of creates, counted per user and per team. */
export function createSourceRoute(
  settings: DatabaseCheckSettings,
  creates: RateLimiter,
) {
  // Each check connects to a host the user chose: limited per user, like the public check per IP.
  const limiter = createCheckLimiter('source-create-checks', settings.limits)

  return async (c: Context<AppEnv>) => {
    const { deps } = c.var
    const viewer = viewerOf(c)
    const key = deps.keys['source-passwords']
    const body = await readJson(c, sourceCalls.create.request)
    if (!body.success) return body.response
    const {
      team_id,
      region,
      database_url,
      name = null,
      project = null,
      environment = null,
    } = body.data
    if (!(await getTeam(deps.db, viewer, team_id)))
      return c.json({ message: 'Team not found' }, 404)
    // Every create is a connection the server keeps making to a host the user chose.
    const rate = await creates.admit(rateKeyOf(viewer), `team:${team_id}`)
    if (!rate.admitted)
      return tooManyRequests(
        'Too many sources added in a short time; please try again in a minute.',
        rate.retryAfterSeconds,
      )

    const checks: CheckSettings = {
      allowPrivate: deps.env.allowPrivateDatabaseTargets,
      resolve: settings.resolve,
    }
    let checked = await guardSourceUrl(database_url, checks)
    if (checked.ok && c.req.query('skip_validation') !== 'true') {
      const admission = await limiter.admit(deps.db, rateKeyOf(viewer))
      if (!admission.admitted) return tooManyChecks(admission.retryAfterSeconds)
      try {
        checked = await checkSourceReady(checked.address, database_url, checks)
      } finally {
        admission.release()
      }
    }
    if (!checked.ok) return c.json({ message: checked.message }, 400)

    const outcome = await createSource(deps.db, key, {
      teamId: team_id,
      name,
      project,
      environment,
      region,
      address: checked.address,
      instanceId: deps.sources.instanceId,
      maxPerTeam: deps.env.MAX_SOURCES_PER_TEAM,
    })
    if (outcome.kind === 'no_team')
      return c.json({ message: 'Team not found' }, 404)
    if (outcome.kind === 'team_full')
      return c.json(
        { message: teamFullMessage(deps.env.MAX_SOURCES_PER_TEAM) },
        409,
      )
    if (outcome.kind === 'existing') {
      const { id, source_secret, status } = outcome
      const existing: CreateSourceResponse = {
        id,
        source_secret,
        status,
        message: ALREADY_REGISTERED_MESSAGE,
      }
      return c.json(existing, 200)
    }
    deps.sources.kick()
    const { id, source_secret, txid } = outcome
    const created: CreateSourceResponse = {
      id,
      source_secret,
      status: 'pending',
      txid,
    }
    return c.json(created, 201)
  }
}
