// A team's setup-link calls: create and delete, through the app's one fetch
// wrapper. The list is never read here: the team page reads the synced store.
import { setupFormCalls } from '../../../shared/api-calls.ts'
import type { CreateSetupFormRequest } from '../../../shared/setup-forms.ts'
import { api } from '../../lib/api.ts'

export function createSetupForm(teamId: string, body: CreateSetupFormRequest) {
  const { method, path, response } = setupFormCalls.create
  return api(path(teamId), response, { method, body })
}

export function deleteSetupForm(teamId: string, formId: string) {
  const { method, path, response } = setupFormCalls.remove
  return api(path(teamId, formId), response, { method })
}
