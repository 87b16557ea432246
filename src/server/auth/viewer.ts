// Who a request acts for, and so which teams it may see: a signed-in user sees every team they
// belong to; a team's API token sees that one team only. Every member-only read (teams.ts,
// sources.ts) limits itself with teamsOf, so a route reached with a token cannot see past its
// team without the route knowing tokens exist (api-tokens/scope.ts says which routes it reaches).
import type { Context } from 'hono'
import type { AppEnv } from '../platform/http/context.ts'

export type Viewer =
  | { kind: 'user'; userId: string }
  | { kind: 'token'; tokenId: string; teamId: string; createdBy: string | null }

export function viewerOf(c: Context<AppEnv>): Viewer {
  const token = c.get('apiToken') as AppEnv['Variables']['apiToken']
  if (token) return { kind: 'token', ...token }
  return { kind: 'user', userId: c.var.user.id }
}

/**
 * SQL for the ids of the teams the viewer may see, reading its one parameter as `$n`, and that
 * parameter's value: `team_id in (${sql})`.
 */
export function teamsOf(
  viewer: Viewer,
  n: number,
): [sql: string, value: string] {
  return viewer.kind === 'user'
    ? [`select team_id from memberships where user_id = $${n}`, viewer.userId]
    : [`select $${n}::uuid`, viewer.teamId]
}

/** What a rate limit counts this caller as: the user, or the token (never its maker). */
export const rateKeyOf = (viewer: Viewer): string =>
  viewer.kind === 'user' ? `user:${viewer.userId}` : `token:${viewer.tokenId}`

/** Who is recorded as having made something: the user, or the token's maker while they exist. */
export const makerOf = (viewer: Viewer): string | null =>
  viewer.kind === 'user' ? viewer.userId : viewer.createdBy
