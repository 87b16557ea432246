// /api/v1/teams/{teamId}/source-setup-forms: a team's setup links, for its members (mounted by
// teams.ts; another team answers 404 like a missing one). POST makes one (201 with its link
// and txid; 409 past the team's cap on usable links), GET lists them for API clients (the
// dashboard reads the synced shape instead), DELETE soft-deletes one (200 with the txid).
import { setupFormCalls } from '../../shared/api-calls.ts'
import { Hono, type Context } from 'hono'
import { SETUP_FORM_MAX_LIVE_PER_TEAM } from '../../shared/constants.ts'
import { idSchema } from '../../shared/entities.ts'
import { setupFormPath, type SetupForm } from '../../shared/setup-forms.ts'
import { requireUser } from '../auth/middleware.ts'
import { makerOf, viewerOf } from '../auth/viewer.ts'
import {
  createSetupForm,
  deleteSetupForm,
  listSetupForms,
} from './setup-forms.ts'
import { ownOrigin, type AppEnv } from '../platform/http/context.ts'
import { readJson } from '../platform/http/json.ts'
import { memberTeamId, teamNotFound } from '../teams/member-team.ts'

export const setupFormsFullMessage = (max: number) =>
  `This team already has ${max} usable setup links, the most it can have. Delete one to create another.`

/** The link a form's page is at, on our own origin. */
export const setupFormUrl = (origin: string, formId: string) =>
  new URL(setupFormPath(formId), origin).toString()

const withUrl = (c: Context<AppEnv>, form: SetupForm) => ({
  ...form,
  url: setupFormUrl(ownOrigin(c.var.deps.env, c.req.url), form.id),
})

export const setupFormRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .post('/', async (c) => {
    const teamId = await memberTeamId(c)
    if (!teamId) return teamNotFound(c)
    const body = await readJson(c, setupFormCalls.create.request)
    if (!body.success) return body.response
    const created = await createSetupForm(c.var.deps.db, {
      teamId,
      region: body.data.region ?? null,
      createdBy: makerOf(viewerOf(c)),
      expiresInDays: body.data.expires_in_days,
      maxLive: SETUP_FORM_MAX_LIVE_PER_TEAM,
    })
    if (created.kind === 'no_team') return teamNotFound(c)
    if (created.kind === 'full')
      return c.json(
        { message: setupFormsFullMessage(SETUP_FORM_MAX_LIVE_PER_TEAM) },
        409,
      )
    const { id, url, region, expires_at } = withUrl(c, created.form)
    return c.json({ id, url, region, expires_at, txid: created.txid }, 201)
  })
  .get('/', async (c) => {
    const teamId = await memberTeamId(c)
    if (!teamId) return teamNotFound(c)
    const forms = await listSetupForms(c.var.deps.db, teamId)
    return c.json(forms.map((form) => withUrl(c, form)))
  })
  .delete('/:formId', async (c) => {
    const teamId = await memberTeamId(c)
    if (!teamId) return teamNotFound(c)
    const formId = idSchema.safeParse(c.req.param('formId'))
    const deleted =
      formId.success &&
      (await deleteSetupForm(c.var.deps.db, formId.data, teamId))
    if (!deleted) return c.json({ message: 'Setup form not found' }, 404)
    return c.json({ txid: deleted.txid })
  })
