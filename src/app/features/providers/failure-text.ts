// What a failed call to a provider route says: the server's message where it answered with one
// (its own text, never the provider's), else the action's fallback.
import { ApiError } from '../../lib/api.ts'

export const failureText = (failure: unknown, fallback: string) =>
  failure instanceof ApiError && failure.message ? failure.message : fallback
