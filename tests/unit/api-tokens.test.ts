// A team API token's scope is an allow-list of routes (src/server/api-tokens/scope.ts): its
// team's sources and setup links, and the team itself; nothing near them. And a token's expiry
// is one instant.
import { describe, expect, it } from 'vitest'
import { tokenMayCall } from '../../src/server/api-tokens/scope.ts'
import { createApiTokenRequestSchema } from '../../src/shared/api-tokens.ts'

const team = '1d6f0b2e-0000-4000-8000-000000000001'
const source = '1d6f0b2e-0000-4000-8000-000000000002'

describe('tokenMayCall', () => {
  it.each([
    ['GET', '/api/v1/teams'],
    ['GET', `/api/v1/teams/${team}`],
    ['GET', `/api/v1/teams/${team}/source-setup-forms`],
    ['POST', `/api/v1/teams/${team}/source-setup-forms`],
    ['DELETE', `/api/v1/teams/${team}/source-setup-forms/${source}`],
    ['GET', '/api/v1/sources'],
    ['PUT', '/api/v1/sources'],
    ['GET', `/api/v1/sources/${source}`],
    ['HEAD', `/api/v1/sources/${source}`],
    ['GET', `/api/v1/sources/${source}/secret`],
    ['POST', `/api/v1/sources/${source}/rotate-secret`],
    ['POST', `/api/v1/sources/${source}/restart`],
    ['DELETE', `/api/v1/sources/${source}`],
    ['GET', `/api/v1/sources/${source}/shapes/abc-123/messages`],
    ['GET', `/api/v1/sources/${source}/shapes/abc-123/timeline`],
  ])('allows %s %s', (method, path) => {
    expect(tokenMayCall(method, path)).toBe(true)
  })

  it.each([
    ['POST', `/api/v1/teams/${team}/api-tokens`],
    ['GET', `/api/v1/teams/${team}/api-tokens`],
    ['DELETE', `/api/v1/teams/${team}/api-tokens/${source}`],
    ['GET', `/api/v1/teams/${team}/api-tokens/uses`],
    ['GET', `/api/v1/teams/${team}/users`],
    ['GET', `/api/v1/teams/${team}/alert-destinations`],
    ['DELETE', `/api/v1/teams/${team}`],
    ['GET', '/api/v1/users/me'],
    ['GET', '/api/v1/provider-connections'],
    ['PATCH', `/api/v1/sources/${source}`],
    ['GET', `/api/v1/sources/${source}/schema`],
    ['DELETE', `/api/v1/sources/${source}/shapes/h`],
    ['POST', `/api/v1/sources/${source}/secret`],
    ['GET', `/api/v1/sources/${source}/restart`],
    ['GET', '/api/admin/teams'],
    ['GET', '/api/public/auth/user'],
    ['GET', `/v1/sources?team_id=${team}`],
    ['GET', '/api/v1/sourcesx'],
    ['GET', `/api/v1/sources/${source}/secret/x`],
  ])('refuses %s %s', (method, path) => {
    expect(tokenMayCall(method, path)).toBe(false)
  })
})

describe('createApiTokenRequestSchema', () => {
  it('sends an expiry as one instant: a bare date is its midnight UTC, whatever the database time zone', () => {
    const parse = (expires_at: string) =>
      createApiTokenRequestSchema.parse({ name: 'ci', expires_at }).expires_at
    expect(parse('2099-01-02')).toBe('2099-01-02T00:00:00.000Z')
    expect(parse('2099-01-02T10:00:00+02:00')).toBe('2099-01-02T08:00:00.000Z')
  })
})
