// The onboarding intent form: one schema with the API's field names, parsed
// by the /welcome page before it sends and by POST /api/v1/onboarding-intent when it arrives,
// so both sides say the same.
import { z } from 'zod'

export const ONBOARDING_INTENT_PATH = '/api/v1/onboarding-intent'

// The form shows no maximum; these keep a row small and are generous for real answers.
const COMPANY_MAX_LENGTH = 200
const WEBSITE_MAX_LENGTH = 2048
const DESCRIPTION_MAX_LENGTH = 2000

export const onboardingIntentSchema = z.object({
  company: z
    .string()
    .trim()
    .min(1, 'Company is required')
    .max(COMPANY_MAX_LENGTH, `At most ${COMPANY_MAX_LENGTH} characters`),
  website: z
    .string()
    .trim()
    .min(1, 'Website is required')
    .max(WEBSITE_MAX_LENGTH, `At most ${WEBSITE_MAX_LENGTH} characters`),
  projectDescription: z
    .string()
    .trim()
    .min(5, 'Tell us a little more (at least 5 characters)')
    .max(
      DESCRIPTION_MAX_LENGTH,
      `At most ${DESCRIPTION_MAX_LENGTH} characters`,
    ),
})
export type OnboardingIntent = z.infer<typeof onboardingIntentSchema>
export type OnboardingField = keyof OnboardingIntent

/** The 400 body for a failed parse: the first path element names the field. */
export type ZodErrorBody = {
  error: {
    name: 'ZodError'
    issues: { path: (string | number)[]; message: string }[]
  }
}

export function zodErrorBody(error: z.ZodError): ZodErrorBody {
  return {
    error: {
      name: 'ZodError',
      issues: error.issues.map((i) => ({
        path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
        message: i.message,
      })),
    },
  }
}

const zodErrorBodySchema = z.object({
  error: z.object({
    name: z.literal('ZodError'),
    issues: z.array(
      z.object({
        path: z.array(z.union([z.string(), z.number()])),
        message: z.string(),
      }),
    ),
  }),
})

const FIELDS: readonly OnboardingField[] = [
  'company',
  'website',
  'projectDescription',
]

/**
 * Field errors keyed by the first path element of each issue, the first issue per field
 * winning; null when `body` is not a ZodError body or names no field of the form.
 */
export function fieldErrorsOf(
  body: unknown,
): Partial<Record<OnboardingField, string>> | null {
  const parsed = zodErrorBodySchema.safeParse(body)
  if (!parsed.success) return null
  const errors: Partial<Record<OnboardingField, string>> = {}
  for (const issue of parsed.data.error.issues) {
    const field = issue.path[0]
    if (FIELDS.includes(field as OnboardingField))
      errors[field as OnboardingField] ??= issue.message
  }
  return Object.keys(errors).length > 0 ? errors : null
}
