// /api/v1/teams/{teamId}/api-tokens: a team's API tokens, for its signed-in members only (a
// token cannot list or mint tokens, whatever its scope). POST makes one and answers the token
// this once (201); GET lists them without it; DELETE revokes one; GET /uses reads the team's
// audit of token use, newest first. Another team answers 404
// like a missing one (mounted by teams/routes.ts).
import { Hono } from 'hono'
import {
  API_TOKENS_MAX_PER_TEAM,
  apiTokenUsesQuerySchema,
  createApiTokenRequestSchema,
} from '../../shared/api-tokens.ts'
import { idSchema } from '../../shared/entities.ts'
import { requireSessionUser } from '../auth/middleware.ts'
import type { AppEnv } from '../platform/http/context.ts'
import { readJson, readQuery } from '../platform/http/json.ts'
import { memberTeamId, teamNotFound } from '../teams/member-team.ts'
import {
  createApiToken,
  listApiTokens,
  listApiTokenUses,
  revokeApiToken,
} from './api-tokens.ts'

export const apiTokensFullMessage = (max: number) =>
  `This team already has ${max} API tokens, the most it can have. Revoke one to create another.`

export const apiTokenRoutes = new Hono<AppEnv>()
  .use(requireSessionUser)
  .post('/', async (c) => {
    const teamId = await memberTeamId(c)
    if (!teamId) return teamNotFound(c)
    const body = await readJson(c, createApiTokenRequestSchema)
    if (!body.success) return body.response
    const made = await createApiToken(c.var.deps.db, {
      teamId,
      name: body.data.name,
      expiresAt: body.data.expires_at ?? null,
      createdBy: c.var.user.id,
      maxLive: API_TOKENS_MAX_PER_TEAM,
    })
    if (made.kind === 'no_team') return teamNotFound(c)
    if (made.kind === 'full')
      return c.json(
        { message: apiTokensFullMessage(API_TOKENS_MAX_PER_TEAM) },
        409,
      )
    return c.json(made.token, 201)
  })
  .get('/', async (c) => {
    const teamId = await memberTeamId(c)
    if (!teamId) return teamNotFound(c)
    return c.json(await listApiTokens(c.var.deps.db, teamId))
  })
  .get('/uses', async (c) => {
    const teamId = await memberTeamId(c)
    if (!teamId) return teamNotFound(c)
    const query = readQuery(c, apiTokenUsesQuerySchema)
    if (!query.success) return query.response
    return c.json(
      await listApiTokenUses(c.var.deps.db, teamId, query.data.limit),
    )
  })
  .delete('/:tokenId', async (c) => {
    const teamId = await memberTeamId(c)
    if (!teamId) return teamNotFound(c)
    const tokenId = idSchema.safeParse(c.req.param('tokenId'))
    const revoked =
      tokenId.success &&
      (await revokeApiToken(c.var.deps.db, teamId, tokenId.data))
    if (!revoked) return c.json({ message: 'API token not found' }, 404)
    return c.json({ id: tokenId.data })
  })
