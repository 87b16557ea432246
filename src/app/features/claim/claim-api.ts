// The claim page's calls: the claim's state, the user's teams to claim into, and the claim itself;
// how each failure reads is decided here, in the texts the page shows word for word.
import { z } from 'zod'
import { claimCalls } from '../../../shared/api-calls.ts'
import { API_MOUNTS } from '../../../shared/api-routes.ts'
import {
  CLAIM_MESSAGES,
  type ClaimableSource,
} from '../../../shared/claimable-sources.ts'
import { idSchema } from '../../../shared/entities.ts'
import { api, ApiError } from '../../lib/api.ts'

/** The claim's state; null when the server says it is not claimable (or does not exist). */
export async function fetchClaim(
  claimId: string,
  signal?: AbortSignal,
): Promise<ClaimableSource | null> {
  try {
    const { method, path, response } = claimCalls.read
    return await api(path(claimId), response, { method, signal })
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null
    throw error
  }
}

const teamsSchema = z.array(z.object({ id: idSchema, name: z.string() }))
export type ClaimTeam = z.infer<typeof teamsSchema>[number]

/**
 * The signed-in user's teams. Over REST, not the store: this public page has no store until a
 * claim is made (and then only to wait for the claimed source, claimed-source.ts).
 */
export const fetchTeams = (signal?: AbortSignal) =>
  api(API_MOUNTS.teams, teamsSchema, { signal })

export function claimSource(claimId: string, teamId: string) {
  const { method, path, response } = claimCalls.claim
  return api(path(), response, { method, body: { claimId, teamId } })
}

/** The text for a failed claim: by status, and any other failure is the network's. */
export function claimErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return CLAIM_MESSAGES.network
  if (error.status === 401) return CLAIM_MESSAGES.signedOut
  if (error.status === 404 && error.message === CLAIM_MESSAGES.notClaimable)
    return CLAIM_MESSAGES.notClaimable
  if (error.status === 409 && error.message === CLAIM_MESSAGES.notReady)
    return CLAIM_MESSAGES.notReady
  // The team's rules (its maximum, a database it already has) say what to do in their own words.
  if (error.status === 409) return error.message
  return CLAIM_MESSAGES.failed
}
