// One call of the validation endpoint, turned into a value that never throws: the server's answer,
// or the page's error text with a result in which nothing is ready. A URL the server would refuse
// to parse gets the server's own message without a request: its 400 is an expected answer, and the
// browser logs every 4xx as a console error.
import { z } from 'zod'
import {
  DatabaseUrlError,
  parseDatabaseUrl,
} from '../../../shared/postgres-url.ts'
import {
  databaseValidationSchema,
  unreachableValidation,
  VALIDATE_DATABASE_URL_PATH,
  type DatabaseValidation,
} from '../../../shared/validation.ts'

const INVALID_URL_FALLBACK =
  'Invalid database URL provided. Special characters must be URL encoded.'
export const VALIDATION_FAILED_FALLBACK =
  'Failed to validate database connection'

export type ValidationOutcome = {
  result: DatabaseValidation
  error: string | null
}

export type FetchLike = (
  input: string,
  init: RequestInit,
) => Promise<Pick<Response, 'ok' | 'status' | 'text'>>

const errorBodySchema = z.object({
  message: z.string().optional(),
  error: z.string().optional(),
})

/** A 400 is the server's message; anything else its message, its error, or the fallback. */
export function validationErrorText(status: number, body: unknown): string {
  const parsed = errorBodySchema.safeParse(body)
  const { message, error } = parsed.success ? parsed.data : {}
  if (status === 400) return message || INVALID_URL_FALLBACK
  return message || error || VALIDATION_FAILED_FALLBACK
}

/** A failure reads as a database that could not be reached, so every panel stays truthful. */
export function failedValidation(message: string): ValidationOutcome {
  return { error: message, result: unreachableValidation(message) }
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The message of the server's 400 for a URL it will not parse; null for any other URL. */
function refusalOf(databaseUrl: string): string | null {
  try {
    parseDatabaseUrl(databaseUrl)
    return null
  } catch (error) {
    // Anything else (a parser bug) is left to the server to answer.
    return error instanceof DatabaseUrlError ? error.message : null
  }
}

export async function requestValidation(
  databaseUrl: string,
  fetchFn: FetchLike,
  signal?: AbortSignal,
): Promise<ValidationOutcome> {
  const refused = refusalOf(databaseUrl)
  if (refused) return failedValidation(refused)
  try {
    const response = await fetchFn(VALIDATE_DATABASE_URL_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ database_url: databaseUrl }),
      signal,
    })
    const body = parseJson(await response.text())
    if (!response.ok)
      return failedValidation(validationErrorText(response.status, body))
    const parsed = databaseValidationSchema.safeParse(body)
    // An answer we cannot read is no verdict on the database.
    if (!parsed.success) return failedValidation(VALIDATION_FAILED_FALLBACK)
    return { result: parsed.data, error: null }
  } catch {
    // Offline, server down, or aborted: the browser's own text ('Failed to fetch') says less
    // than the fixed fallback.
    return failedValidation(VALIDATION_FAILED_FALLBACK)
  }
}
