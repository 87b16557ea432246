// When a provider list is read again: every 10 s and on window focus, and a failed read up to 3
// more times before its error shows. Pure, so the numbers are tested apart from React;
// use-provider-list.ts applies them.
import { PROVIDER_RETRIES } from '../../../shared/constants.ts'
import { ApiError } from '../../lib/api.ts'

/**
 * Whether a read that failed `failures` times is tried again. A 401 is an answer (not
 * connected), and so is any other 4xx: asking again gets the same.
 */
export function shouldRetry(failures: number, error: unknown): boolean {
  if (failures > PROVIDER_RETRIES) return false
  if (error instanceof ApiError && error.status >= 400 && error.status < 500)
    return false
  return true
}

/** Waits between tries, doubling from 0.5 s: three retries add 3.5 s before an error shows. */
export function retryDelayMs(failures: number): number {
  return Math.min(500 * 2 ** (failures - 1), 8_000)
}

/**
 * Shown in red under the list: 'Error loading {noun}: {message}', the message being the
 * list's own text whatever failed: the server's words ('Supabase answered 500.') are for its
 * logs, and users see the same fixed words for each list (tests assert them).
 */
export function listErrorText(noun: string, fallback: string): string {
  return `Error loading ${noun}: ${fallback}`
}

export type ListState<T> =
  | { kind: 'loading' }
  | { kind: 'not-connected' }
  | { kind: 'error'; text: string }
  | { kind: 'list'; items: T[] }

/** What a read's final failure shows: a 401 is the not-connected state, not an error. */
export function failedList<T>(
  error: unknown,
  noun: string,
  fallback: string,
): ListState<T> {
  if (error instanceof ApiError && error.status === 401)
    return { kind: 'not-connected' }
  return { kind: 'error', text: listErrorText(noun, fallback) }
}
