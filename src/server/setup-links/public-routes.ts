// /api/public/source-setup-forms: a setup link's form, for whoever holds the link (no
// session). GET /{formId} answers what the page needs; POST /{formId}/use adds the database as
// a source of the form's team, once. The URL goes through the same address guard and
// readiness check as PUT /api/v1/sources, and each use counts against the public readiness
// check's per-IP limits (a limiter of its own): every use connects to a host a stranger chose.
//
// Answers of /use: 201 {id, source_secret}; 400 for a body, URL, host or region we refuse and a
// database that is not ready; 404 for no such form; 410 (Gone) for a form deleted, used or
// expired, with the text the setup page shows; 409 when the team has that database in that
// region already or has its maximum of sources (the form stays unused); 429 past the limits.
import { setupFormCalls } from '../../shared/api-calls.ts'
import { Hono, type Context } from 'hono'
import { idSchema } from '../../shared/entities.ts'
import {
  SETUP_FORM_UNUSABLE_MESSAGES,
  setupFormUnusable,
} from '../../shared/setup-forms.ts'
import { ALREADY_REGISTERED_MESSAGE } from '../../shared/sources.ts'
import { teamFullMessage } from '../sources/create/routes.ts'
import { getPublicSetupForm, getSetupForm } from './setup-forms.ts'
import { clientIp } from '../platform/http/client-ip.ts'
import type { AppEnv } from '../platform/http/context.ts'
import { readJson } from '../platform/http/json.ts'
import {
  checkSourceReady,
  guardSourceUrl,
  type CheckSettings,
} from '../sources/create/create-checks.ts'
import { createCheckLimiter, tooManyChecks } from '../validation/rate-limit.ts'
import type { DatabaseCheckSettings } from '../validation/settings.ts'
import { useSetupForm } from './use-form.ts'

const notFound = (c: Context) =>
  c.json({ message: 'Setup form not found' }, 404)

const formIdOf = (c: Context) => {
  const id = idSchema.safeParse(c.req.param('formId'))
  return id.success ? id.data : null
}

export function setupFormPublicRoutes(settings: DatabaseCheckSettings) {
  const limiter = createCheckLimiter('setup-form-checks', settings.limits)

  const use = async (c: Context<AppEnv>, formId: string, key: Buffer) => {
    const { deps } = c.var
    const body = await readJson(c, setupFormCalls.use.request)
    if (!body.success) return body.response
    const { database_url, region } = body.data
    const form = await getSetupForm(deps.db, formId)
    if (!form) return notFound(c)
    const unusable = setupFormUnusable(form)
    if (unusable)
      return c.json({ message: SETUP_FORM_UNUSABLE_MESSAGES[unusable] }, 410)
    if (form.region && form.region !== region)
      return c.json(
        { message: `region: this setup form is for ${form.region}` },
        400,
      )

    const checks: CheckSettings = {
      allowPrivate: deps.env.allowPrivateDatabaseTargets,
      resolve: settings.resolve,
    }
    let checked = await guardSourceUrl(database_url, checks)
    if (checked.ok)
      checked = await checkSourceReady(checked.address, database_url, checks)
    if (!checked.ok) return c.json({ message: checked.message }, 400)

    const outcome = await useSetupForm(deps.db, key, {
      formId,
      teamId: form.team_id,
      region,
      address: checked.address,
      instanceId: deps.sources.instanceId,
      maxPerTeam: deps.env.MAX_SOURCES_PER_TEAM,
    })
    switch (outcome.kind) {
      case 'created':
        deps.sources.kick()
        return c.json(
          { id: outcome.id, source_secret: outcome.source_secret },
          201,
        )
      case 'unusable':
        return c.json(
          { message: SETUP_FORM_UNUSABLE_MESSAGES[outcome.reason] },
          410,
        )
      case 'existing':
        return c.json({ message: ALREADY_REGISTERED_MESSAGE }, 409)
      case 'team_full':
        return c.json(
          { message: teamFullMessage(deps.env.MAX_SOURCES_PER_TEAM) },
          409,
        )
      case 'no_team':
        return notFound(c)
    }
  }

  return new Hono<AppEnv>()
    .get('/:formId', async (c) => {
      const formId = formIdOf(c)
      const form = formId && (await getPublicSetupForm(c.var.deps.db, formId))
      return form ? c.json(form) : notFound(c)
    })
    .post('/:formId/use', async (c) => {
      const { deps } = c.var
      const key = deps.keys['source-passwords']
      const formId = formIdOf(c)
      if (!formId) return notFound(c)
      const admission = await limiter.admit(deps.db, clientIp(c))
      if (!admission.admitted) return tooManyChecks(admission.retryAfterSeconds)
      try {
        return await use(c, formId, key)
      } finally {
        admission.release()
      }
    })
}
