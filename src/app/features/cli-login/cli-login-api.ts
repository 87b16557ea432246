// The CLI login page's calls: the login as the terminal started it, and its approval.
import { cliLoginCalls } from '../../../shared/api-calls.ts'
import { api } from '../../lib/api.ts'

export function fetchCliLogin(id: string, signal?: AbortSignal) {
  const { method, path, response } = cliLoginCalls.read
  return api(path(id), response, { method, signal })
}

export function approveCliLogin(id: string, teamId: string) {
  const { method, path, response } = cliLoginCalls.approve
  return api(path(id), response, { method, body: { team_id: teamId } })
}
