// /api/public/v1/claimable-sources (docs/using.md, Claimable sources; starter scripts rely on these
// answers): a starter script registers a source with no account (POST /, no cookie, no Origin:
// app.ts exempts exactly that request from the same-origin rule; limited per IP per minute, and in
// how many may wait per IP and per database), anyone holding the claim id reads its state (GET
// /:claimId; the secret only until it is claimed), and a signed-in member claims it into a team
// (POST /claim, cookie and same origin).
import { claimCalls } from '../../shared/api-calls.ts'
import { Hono, type Context } from 'hono'
import {
  CLAIM_MESSAGES,
  createClaimableSourceRequestSchema,
  type ClaimableSource,
} from '../../shared/claimable-sources.ts'
import { idSchema } from '../../shared/entities.ts'
import { ALREADY_REGISTERED_MESSAGE } from '../../shared/sources.ts'
import { readSessionCookie } from '../auth/cookies.ts'
import { resolveSession } from '../auth/sessions.ts'
import { readClaim, type ClaimRow } from './claimable-sources.ts'
import { getTeam } from '../teams/teams.ts'
import { clientIp } from '../platform/http/client-ip.ts'
import type { AppEnv } from '../platform/http/context.ts'
import { readJson } from '../platform/http/json.ts'
import { tooManyRequests } from '../platform/http/rate-limit.ts'
import { claimSource } from './claim.ts'
import { createClaimableSource, UNCLAIMED_FULL_MESSAGE } from './create.ts'
import { createCheckLimiter, tooManyChecks } from '../validation/rate-limit.ts'
import type { DatabaseCheckSettings } from '../validation/settings.ts'
import { teamFullMessage } from '../sources/create/routes.ts'

type C = Context<AppEnv>

const notClaimable = (c: C) =>
  c.json({ message: CLAIM_MESSAGES.notClaimable }, 404)

/** The answer for a claim that exists and is neither expired nor removed. */
function claimAnswer(row: ClaimRow): ClaimableSource {
  const link = row.claim_link ? { claim_link: row.claim_link } : {}
  // Once claimed the source is a team's: its secret is the team's to hand out, not the link's.
  if (row.claimed)
    return {
      state: 'claimed',
      message: 'This source has already been claimed.',
      source: { source_id: row.source_id },
    }
  const source = { source_id: row.source_id, secret: row.source_secret }
  if (row.state === 'active')
    return {
      state: 'ready',
      message: 'The source is ready to be claimed.',
      source,
      ...link,
    }
  if (row.state === 'error')
    return {
      state: 'failed',
      message: row.state_reason ?? 'The source could not start replicating.',
      source,
      ...link,
    }
  return {
    state: 'pending',
    message: 'The source is being set up.',
    source,
    ...link,
  }
}

export function claimableSourceRoutes(settings: DatabaseCheckSettings) {
  // Each create connects to a host a stranger chose, like the public check: limited per IP.
  const limiter = createCheckLimiter('claimable-create-checks', settings.limits)

  return new Hono<AppEnv>()
    .post('/', async (c) => {
      const { deps } = c.var
      const key = deps.keys['source-passwords']
      const ip = clientIp(c)
      const admission = await limiter.admit(deps.db, `ip:${ip}`)
      if (!admission.admitted) return tooManyChecks(admission.retryAfterSeconds)
      try {
        const body = await readJson(c, createClaimableSourceRequestSchema)
        if (!body.success) return body.response
        const outcome = await createClaimableSource(
          deps.db,
          key,
          {
            databaseUrl: body.data.database_url,
            region: body.data.region,
            claimLink: body.data.claim_link ?? null,
          },
          {
            checks: {
              allowPrivate: deps.env.allowPrivateDatabaseTargets,
              resolve: settings.resolve,
            },
            instanceId: deps.sources.instanceId,
            maxUnclaimed: deps.env.MAX_UNCLAIMED_SOURCES,
            shares: {
              perIp: { ip, max: deps.env.MAX_UNCLAIMED_SOURCES_PER_IP },
              perDatabase: deps.env.MAX_UNCLAIMED_SOURCES_PER_DATABASE,
            },
          },
        )
        if (outcome.kind === 'refused')
          return c.json({ message: outcome.message }, 400)
        if (outcome.kind === 'limited')
          return tooManyRequests(outcome.message, outcome.retryAfterSeconds)
        if (outcome.kind === 'full')
          return c.json({ message: UNCLAIMED_FULL_MESSAGE }, 503, {
            'retry-after': '60',
          })
        deps.sources.kick()
        return c.json({ claimId: outcome.claimId }, 201)
      } finally {
        admission.release()
      }
    })
    .post('/claim', async (c) => {
      const { db, env, sources } = c.var.deps
      // Not requireUser: a visitor who is not signed in gets the claim page's own text, not a
      // bare 401.
      const user = await resolveSession(db, readSessionCookie(c))
      if (!user) return c.json({ message: CLAIM_MESSAGES.signedOut }, 401)
      const body = await readJson(c, claimCalls.claim.request)
      if (!body.success) return body.response
      const { claimId, teamId } = body.data
      if (!(await getTeam(db, { kind: 'user', userId: user.id }, teamId)))
        return c.json({ message: 'Team not found' }, 404)
      const outcome = await claimSource(db, {
        claimId,
        teamId,
        userId: user.id,
        maxPerTeam: env.MAX_SOURCES_PER_TEAM,
        instanceId: sources.instanceId,
      })
      switch (outcome.kind) {
        case 'claimed':
          return c.json({
            source_id: outcome.sourceId,
            team_id: teamId,
            txid: outcome.txid,
          })
        case 'not_claimable':
          return notClaimable(c)
        case 'not_ready':
          return c.json({ message: CLAIM_MESSAGES.notReady }, 409)
        case 'no_team':
          return c.json({ message: 'Team not found' }, 404)
        case 'team_full':
          return c.json(
            { message: teamFullMessage(env.MAX_SOURCES_PER_TEAM) },
            409,
          )
        case 'existing':
          return c.json({ message: ALREADY_REGISTERED_MESSAGE }, 409)
      }
    })
    .get('/:claimId', async (c) => {
      const id = idSchema.safeParse(c.req.param('claimId'))
      if (!id.success) return notClaimable(c)
      const row = await readClaim(c.var.deps.db, id.data)
      if (!row || row.gone) return notClaimable(c)
      return c.json(claimAnswer(row))
    })
}
