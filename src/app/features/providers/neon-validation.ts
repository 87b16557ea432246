// The second provider's validation: the server asks Neon for the role's direct
// connection URI and checks it; the answer carries the check and the URI the source is made
// with. Never throws, like the URL endpoint's request, so the shared routine and panel take it.
import { z } from 'zod'
import { databaseValidationSchema } from '../../../shared/validation.ts'
import type { ValidationRequest } from '../validation/validation-controller.ts'
import {
  failedValidation,
  parseJson,
  validationErrorText,
  VALIDATION_FAILED_FALLBACK,
  type ValidationOutcome,
} from '../validation/validation-request.ts'
import { neonDatabaseValidatePath } from '../../../shared/api-routes.ts'

export type NeonOutcome = ValidationOutcome & { connectionUri: string | null }

const answerSchema = z.object({
  validation: databaseValidationSchema,
  neon: z.object({ connection_uri: z.string() }),
})

const seg = encodeURIComponent

export function neonValidatePath(p: {
  projectId: string
  branchId: string
  database: string
  role: string
}): string {
  return `${neonDatabaseValidatePath(p.projectId, p.branchId, p.database)}?role=${seg(p.role)}`
}

const failed = (message: string): NeonOutcome => ({
  ...failedValidation(message),
  connectionUri: null,
})

/** `path` from neonValidatePath. */
export const requestNeonValidation: ValidationRequest<NeonOutcome> = async (
  path,
  signal,
) => {
  try {
    const response = await fetch(path, {
      method: 'POST',
      credentials: 'include',
      signal,
    })
    const body = parseJson(await response.text())
    if (!response.ok)
      // A 400 here is the server's refusal of the choice, not a URL to encode: its words only.
      return failed(
        response.status === 400
          ? validationErrorText(500, body)
          : validationErrorText(response.status, body),
      )
    const parsed = answerSchema.safeParse(body)
    if (!parsed.success) return failed(VALIDATION_FAILED_FALLBACK)
    return {
      result: parsed.data.validation,
      error: null,
      connectionUri: parsed.data.neon.connection_uri,
    }
  } catch {
    return failed(VALIDATION_FAILED_FALLBACK)
  }
}
