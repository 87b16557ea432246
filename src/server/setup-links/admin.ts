// The admin tool's setup-link operations: create one for any team, list a team's,
// delete one by id. The same queries as the team members' API (control/setup-forms.ts); the
// CLI (run.ts) and /api/admin (routes.ts) register these beside the teams and users commands.
// A link is on the public origin: PUBLIC_URL, or for the CLI (no request to read it from)
// http://localhost:PORT, where a local server answers.
import { z } from 'zod'
import {
  SETUP_FORM_DEFAULT_EXPIRY_DAYS,
  SETUP_FORM_MAX_EXPIRY_DAYS,
  SETUP_FORM_MAX_LIVE_PER_TEAM,
} from '../../shared/constants.ts'
import type { SetupForm } from '../../shared/setup-forms.ts'
import { SELECTABLE_REGIONS } from '../../shared/sources.ts'
import { setupFormsFullMessage, setupFormUrl } from './team-routes.ts'
import type { Db } from '../platform/db/database.ts'
import {
  createSetupForm,
  deleteSetupForm,
  listSetupForms,
} from './setup-forms.ts'
import { teamExists } from '../teams/teams.ts'
import { AdminError, parseWith } from '../admin/operations.ts'

/** Where links point when no request says: PUBLIC_URL, else this machine's server. */
/** `7d` or `7` (the CLI), or a number (HTTP): whole days, 1 to the most a link may last. */
const expiresIn = z.unknown().transform((value, ctx) => {
  const days =
    typeof value === 'string' && /^\d{1,4}d?$/.test(value)
      ? Number.parseInt(value, 10)
      : value
  const problem =
    typeof days !== 'number' || !Number.isInteger(days)
      ? 'expires-in must be a number of days, like 7d'
      : days < 1
        ? 'expires-in must be at least 1d'
        : days > SETUP_FORM_MAX_EXPIRY_DAYS
          ? `expires-in must be at most ${SETUP_FORM_MAX_EXPIRY_DAYS}d`
          : null
  if (problem === null) return days as number
  ctx.addIssue({ code: 'custom', message: problem })
  return z.NEVER
})

const id = (what: string) => z.uuid(`${what} must be a UUID`)

export const setupFormSchemas = {
  setupFormsCreate: z.strictObject({
    team: id('team'),
    region: z
      .enum(SELECTABLE_REGIONS, {
        error: `region must be one of ${SELECTABLE_REGIONS.join(', ')}`,
      })
      .optional(),
    expiresIn: expiresIn.optional(),
  }),
  setupFormsList: z.strictObject({ team: id('team') }),
  setupFormsDelete: z.strictObject({ id: id('setup form') }),
}

type Input<K extends keyof typeof setupFormSchemas> = z.infer<
  (typeof setupFormSchemas)[K]
>

/** As parseAdminInput: a failure is an `invalid` AdminError naming the field. */
export const parseSetupFormInput = <K extends keyof typeof setupFormSchemas>(
  key: K,
  raw: unknown,
): Input<K> => parseWith<unknown>(setupFormSchemas[key], raw) as Input<K>

export type AdminSetupForm = SetupForm & { url: string }

const withUrl = (origin: string, form: SetupForm): AdminSetupForm => ({
  ...form,
  url: setupFormUrl(origin, form.id),
})

async function mustFindTeam(db: Db, teamId: string) {
  if (!(await teamExists(db, teamId)))
    throw new AdminError('not_found', `no team with id ${teamId}`)
}

export const setupFormOperations = {
  async setupFormsCreate(
    db: Db,
    input: Input<'setupFormsCreate'>,
    origin: string,
  ): Promise<AdminSetupForm> {
    const created = await createSetupForm(db, {
      teamId: input.team,
      region: input.region ?? null,
      createdBy: null,
      expiresInDays: input.expiresIn ?? SETUP_FORM_DEFAULT_EXPIRY_DAYS,
      maxLive: SETUP_FORM_MAX_LIVE_PER_TEAM,
    })
    if (created.kind === 'no_team')
      throw new AdminError('not_found', `no team with id ${input.team}`)
    if (created.kind === 'full')
      throw new AdminError(
        'conflict',
        setupFormsFullMessage(SETUP_FORM_MAX_LIVE_PER_TEAM),
      )
    return withUrl(origin, created.form)
  },

  async setupFormsList(
    db: Db,
    input: Input<'setupFormsList'>,
    origin: string,
  ): Promise<AdminSetupForm[]> {
    await mustFindTeam(db, input.team)
    const forms = await listSetupForms(db, input.team)
    return forms.map((form) => withUrl(origin, form))
  },

  async setupFormsDelete(
    db: Db,
    input: Input<'setupFormsDelete'>,
    origin: string,
  ): Promise<AdminSetupForm> {
    const deleted = await deleteSetupForm(db, input.id, null)
    if (!deleted)
      throw new AdminError('not_found', `no setup form with id ${input.id}`)
    return withUrl(origin, deleted.form)
  },
}

/** What a form is now, in one word, for the CLI's list. */
function statusOf(form: SetupForm): string {
  if (form.deleted_at) return 'deleted'
  if (form.used_at) return `used (source ${form.source_id ?? 'removed'})`
  if (Date.parse(form.expires_at) <= Date.now()) return 'expired'
  return 'usable'
}

export const setupFormText = {
  created: (f: AdminSetupForm) =>
    `Created setup form ${f.id} for team ${f.team_id}` +
    `${f.region ? ` in ${f.region}` : ''}, expires ${f.expires_at}\n${f.url}`,
  list: (forms: AdminSetupForm[]) =>
    forms.length
      ? forms
          .map(
            (f) =>
              `${f.id}  ${statusOf(f)}  region: ${f.region ?? 'any'}  expires ${f.expires_at}  ${f.url}`,
          )
          .join('\n')
      : 'No setup forms.',
  deleted: (f: AdminSetupForm) => `Deleted setup form ${f.id}`,
}
