// A team's setup-link calls (issue 17): create and delete, through the app's one fetch
// wrapper. The list is never read here: the team page reads the synced store.
import {
  createSetupFormResponseSchema,
  deleteSetupFormResponseSchema,
  type CreateSetupFormRequest,
} from '../../../shared/setup-forms.ts'
import { api } from '../../lib/api.ts'
import { setupFormPath, setupFormsPath } from '../../../shared/api-routes.ts'

export function createSetupForm(teamId: string, body: CreateSetupFormRequest) {
  return api(setupFormsPath(teamId), createSetupFormResponseSchema, {
    method: 'POST',
    body,
  })
}

export function deleteSetupForm(teamId: string, formId: string) {
  return api(setupFormPath(teamId, formId), deleteSetupFormResponseSchema, {
    method: 'DELETE',
  })
}
