// One-time setup links ("setup forms", the public page /setup/{formId}): the calls'
// bodies and answers, the page's path, and when a form can no longer be used, for both sides.
import { z } from 'zod'
import {
  SETUP_FORM_DEFAULT_EXPIRY_DAYS,
  SETUP_FORM_MAX_EXPIRY_DAYS,
} from './constants.ts'
import { idSchema } from './entities.ts'
import { regionSchema } from './sources.ts'
import { databaseUrlSchema } from './validation.ts'

export const SETUP_FORM_PUBLIC_PATH = '/api/public/source-setup-forms'
export const publicSetupFormPath = (formId: string) =>
  `${SETUP_FORM_PUBLIC_PATH}/${encodeURIComponent(formId)}`
export const setupFormUsePath = (formId: string) =>
  `${publicSetupFormPath(formId)}/use`

/** The setup page's regions and the names it shows, its default first. */
export const SETUP_FORM_REGIONS = [
  { id: 'eu-west-1', label: 'Europe' },
  { id: 'us-east-1', label: 'North America' },
] as const

export const setupFormRegionLabel = (id: string) =>
  SETUP_FORM_REGIONS.find((region) => region.id === id)?.label ?? id

/** The page a setup link opens. */
export const setupFormPath = (formId: string) => `/setup/${formId}`

export const expiresInDaysSchema = z
  .number()
  .int('expires_in_days must be a whole number of days')
  .min(1, 'expires_in_days must be at least 1')
  .max(
    SETUP_FORM_MAX_EXPIRY_DAYS,
    `expires_in_days must be at most ${SETUP_FORM_MAX_EXPIRY_DAYS}`,
  )

/** POST /api/v1/teams/{teamId}/source-setup-forms (and the admin API's create). */
export const createSetupFormRequestSchema = z.strictObject({
  region: regionSchema.nullish(),
  expires_in_days: expiresInDaysSchema.default(SETUP_FORM_DEFAULT_EXPIRY_DAYS),
})
export type CreateSetupFormRequest = z.input<
  typeof createSetupFormRequestSchema
>

export const createSetupFormResponseSchema = z.object({
  id: idSchema,
  url: z.string(),
  region: regionSchema.nullable(),
  expires_at: z.string(),
  txid: z.number().int(),
})

/** DELETE .../source-setup-forms/{formId}: the transaction that set deleted_at. */
export const deleteSetupFormResponseSchema = z.object({
  txid: z.number().int(),
})

/** GET /api/public/source-setup-forms/{formId}: what the page needs, nothing about the team. */
export const publicSetupFormSchema = z.object({
  id: idSchema,
  region: regionSchema.nullable(),
  expires_at: z.string(),
  used_at: z.string().nullable(),
  deleted_at: z.string().nullable(),
})
export type PublicSetupForm = z.infer<typeof publicSetupFormSchema>

/** POST /api/public/source-setup-forms/{formId}/use */
export const useSetupFormRequestSchema = z.object({
  database_url: databaseUrlSchema.trim().min(1, 'A database URL is required'),
  region: regionSchema,
})

/** The answer, exactly: the new source's id and secret, nothing else of the source. */
export const useSetupFormResponseSchema = z.object({
  id: idSchema,
  source_secret: z.string(),
})

/** A team's setup form as the team page shows it (synced) and the API lists it. */
export type SetupForm = {
  id: string
  team_id: string
  region: string | null
  created_by: string | null
  created_at: string
  expires_at: string
  used_at: string | null
  source_id: string | null
  deleted_at: string | null
}

/** The texts for a form that can no longer be used, shown word for word. */
export const SETUP_FORM_UNUSABLE_MESSAGES = {
  deleted: 'This setup form has been deleted.',
  used: 'This setup form has already been used.',
  expired: 'This setup form has expired.',
} as const
export type SetupFormUnusable = keyof typeof SETUP_FORM_UNUSABLE_MESSAGES

/** Why a form cannot be used (deleted before used before expired), or null while it can. */
export function setupFormUnusable(
  form: Pick<PublicSetupForm, 'deleted_at' | 'used_at' | 'expires_at'>,
  now: number = Date.now(),
): SetupFormUnusable | null {
  if (form.deleted_at) return 'deleted'
  if (form.used_at) return 'used'
  if (Date.parse(form.expires_at) <= now) return 'expired'
  return null
}
