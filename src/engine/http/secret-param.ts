// Which query parameter carries a request's secret, read one way wherever a secret guards
// shapes (the standalone engine here; a host with names of its own passes them).
import { jsonResponse } from './responses.ts'

/**
 * Electric's names: `secret`, and `api_secret`, its older name, which it still accepts. The
 * first name present wins, even when empty or wrong: a request naming both is judged by
 * `secret` alone, as Electric judges it.
 */
const ELECTRIC_SECRET_PARAMS = ['secret', 'api_secret'] as const

/** The secret a request gives, or undefined when it names none. */
export function givenSecret(
  query: URLSearchParams,
  names: readonly string[] = ELECTRIC_SECRET_PARAMS,
): string | undefined {
  for (const name of names) {
    const value = query.get(name)
    if (value !== null) return value
  }
  return undefined
}

/** Electric's answer to a missing or wrong secret, word for word: clients match on it. */
export const unauthorized = (): Response =>
  jsonResponse(401, { message: 'Unauthorized - Invalid API secret' })
