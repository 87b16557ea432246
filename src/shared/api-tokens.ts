// Team API tokens (docs/using.md, API tokens): the management calls' paths, bodies and answers,
// for the team page and the server alike. The token itself is answered once, by the create.
import { z } from 'zod'
import { TEAM_RESOURCES, teamPath } from './api-routes.ts'
import { idSchema } from './entities.ts'

/** Every token starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_TOKEN_PREFIX = 'sluice_'
export const API_TOKEN_NAME_MAX_LENGTH = 100
/** Live (unrevoked) tokens a team may hold; each is a credential someone must keep track of. */
export const API_TOKENS_MAX_PER_TEAM = 50

export const apiTokensPath = (teamId: string) =>
  `${teamPath(teamId)}${TEAM_RESOURCES.apiTokens}`
export const apiTokenPath = (teamId: string, tokenId: string) =>
  `${apiTokensPath(teamId)}/${encodeURIComponent(tokenId)}`

const futureDate = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error: 'expires_at must be an ISO date or date-time',
  })
  .refine((value) => Date.parse(value) > Date.now(), {
    error: 'expires_at must be in the future',
  })
  // One instant whatever the database session's time zone: a bare date is its midnight UTC.
  .transform((value) => new Date(value).toISOString())

/** POST /api/v1/teams/{teamId}/api-tokens. */
export const createApiTokenRequestSchema = z.strictObject({
  name: z
    .string({ error: 'name is required' })
    .trim()
    .min(1, 'name is required')
    .max(
      API_TOKEN_NAME_MAX_LENGTH,
      `name must be at most ${API_TOKEN_NAME_MAX_LENGTH} characters`,
    ),
  expires_at: futureDate.nullish(),
})
export type CreateApiTokenRequest = z.input<typeof createApiTokenRequestSchema>

export const createApiTokenResponseSchema = z.object({
  id: idSchema,
  name: z.string(),
  token: z.string(),
})

/** One row of GET .../api-tokens: never the token nor its hash. */
const apiTokenSchema = z.object({
  id: idSchema,
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
})
export type ApiToken = z.infer<typeof apiTokenSchema>

export const apiTokenListSchema = z.array(apiTokenSchema)

export const revokeApiTokenResponseSchema = z.object({ id: idSchema })

/** GET .../api-tokens/uses: the team's audit of token use, newest first, `limit` rows. */
const API_TOKEN_USES_MAX_LIMIT = 1000
export const apiTokenUsesQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(
      API_TOKEN_USES_MAX_LIMIT,
      `limit must be at most ${API_TOKEN_USES_MAX_LIMIT}`,
    )
    .default(100),
})
