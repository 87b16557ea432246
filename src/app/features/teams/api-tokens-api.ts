// A team's API token calls: create, list and revoke, through the app's one fetch wrapper. The
// list is read here, not from the synced store: token rows are never synced to browsers.
import { apiTokenCalls } from '../../../shared/api-calls.ts'
import type { CreateApiTokenRequest } from '../../../shared/api-tokens.ts'
import { api } from '../../lib/api.ts'

export function createApiToken(teamId: string, body: CreateApiTokenRequest) {
  const { method, path, response } = apiTokenCalls.create
  return api(path(teamId), response, { method, body })
}

export function listApiTokens(teamId: string, signal?: AbortSignal) {
  const { method, path, response } = apiTokenCalls.list
  return api(path(teamId), response, { method, signal })
}

export function revokeApiToken(teamId: string, tokenId: string) {
  const { method, path, response } = apiTokenCalls.revoke
  return api(path(teamId, tokenId), response, { method })
}
