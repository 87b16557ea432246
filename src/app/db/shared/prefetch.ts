// What the tab and the store's worker share about a first visit's prefetched snapshots
// (worker/shape-prefetch.ts explains the prefetch).
import { shapePath } from '../../../shared/api-routes.ts'

/** An answer as the tab hands it over; null when there was no snapshot to keep. */
export type PrefetchedAnswer = {
  status: number
  headers: [string, string][]
  body: ArrayBuffer
} | null

/**
 * A stream's first request and its prefetch name the same shape by path and team (`url`
 * absolute, or a path).
 */
export function prefetchKey(url: string): string {
  const { pathname, searchParams } = new URL(url, 'http://prefetch.invalid')
  return `${pathname}?${searchParams.get('team_id') ?? ''}`
}

/** The owner's shapes, asked for at once. */
export const USER_PATH = shapePath('users')
export const TEAMS_PATH = shapePath('user_teams')

// Past this many teams the rest are asked for by the sync itself, as before.
const TEAMS_AT_MOST = 20

/** Each team's shapes, for the teams a /v1/teams snapshot lists: asked for once it is in. */
export function teamPaths(teamsSnapshot: ArrayBuffer): string[] {
  return teamIdsIn(teamsSnapshot)
    .slice(0, TEAMS_AT_MOST)
    .flatMap((teamId) => [
      shapePath('sources', teamId),
      shapePath('team_members', teamId),
    ])
}

/** The team ids in a /v1/teams snapshot (a JSON array of Electric's messages), in order. */
export function teamIdsIn(body: ArrayBuffer): string[] {
  try {
    const messages = JSON.parse(new TextDecoder().decode(body)) as {
      value?: { team_id?: unknown }
    }[]
    return messages.flatMap((message) =>
      typeof message.value?.team_id === 'string' ? [message.value.team_id] : [],
    )
  } catch {
    return []
  }
}
