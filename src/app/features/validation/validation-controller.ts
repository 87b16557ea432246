// The validation routine without React: trims, skips an empty URL, lets a newer call supersede
// an older one, and keeps result, is-validating and error for whoever subscribes (the hook).
// The request is the URL endpoint's by default; the second provider passes its own (its server
// builds the URL), so both share this one routine and its panel.
import type { DatabaseValidation } from '../../../shared/validation.ts'
import {
  requestValidation,
  type FetchLike,
  type ValidationOutcome,
} from './validation-request.ts'

type ValidationState = {
  result: DatabaseValidation | null
  isValidating: boolean
  error: string | null
}

export type ValidationController<
  O extends ValidationOutcome = ValidationOutcome,
> = {
  getState: () => ValidationState
  subscribe: (listener: () => void) => () => void
  /** The outcome, or null when the URL was empty or a newer call (or reset) took over. */
  validate: (url: string) => Promise<O | null>
  reset: () => void
}

/** One validation call that never throws: see validation-request.ts. */
export type ValidationRequest<O extends ValidationOutcome> = (
  target: string,
  signal: AbortSignal,
) => Promise<O>

const IDLE: ValidationState = { result: null, isValidating: false, error: null }

// Bound lazily: a stored `window.fetch` called on another object throws "Illegal invocation".
const browserFetch: FetchLike = (input, init) => fetch(input, init)

/** The routine on the URL endpoint (the public page and the pasted connection string). */
export function createValidationController(
  fetchFn: FetchLike = browserFetch,
): ValidationController {
  return createRequestController((url, signal) =>
    requestValidation(url, fetchFn, signal),
  )
}

/** The routine on any request, e.g. the second provider's validate route. */
export function createRequestController<O extends ValidationOutcome>(
  request: ValidationRequest<O>,
): ValidationController<O> {
  let state = IDLE
  let inFlight: AbortController | null = null
  const listeners = new Set<() => void>()

  const set = (next: ValidationState) => {
    state = next
    for (const listener of listeners) listener()
  }

  const cancel = () => {
    inFlight?.abort()
    inFlight = null
  }

  return {
    getState: () => state,
    subscribe: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    validate: async (url) => {
      const databaseUrl = url.trim()
      if (!databaseUrl) return null
      cancel()
      const mine = new AbortController()
      inFlight = mine
      set({ result: null, isValidating: true, error: null })
      const outcome = await request(databaseUrl, mine.signal)
      if (inFlight !== mine) return null
      inFlight = null
      set({
        result: outcome.result,
        error: outcome.error,
        isValidating: false,
      })
      return outcome
    },
    reset: () => {
      cancel()
      set(IDLE)
    },
  }
}
