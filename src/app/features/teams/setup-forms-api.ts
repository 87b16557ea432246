// A team's setup-link calls (issue 17): create and delete, through the app's one fetch
// wrapper. The list is never read here: the team page reads the synced store.
import {
  createSetupFormResponseSchema,
  deleteSetupFormResponseSchema,
  type CreateSetupFormRequest,
} from '../../../shared/setup-forms.ts'
import { api } from '../../lib/api.ts'

const formsPath = (teamId: string) =>
  `/api/v1/teams/${encodeURIComponent(teamId)}/source-setup-forms`

export function createSetupForm(teamId: string, body: CreateSetupFormRequest) {
  return api(formsPath(teamId), createSetupFormResponseSchema, {
    method: 'POST',
    body,
  })
}

export function deleteSetupForm(teamId: string, formId: string) {
  return api(
    `${formsPath(teamId)}/${encodeURIComponent(formId)}`,
    deleteSetupFormResponseSchema,
    { method: 'DELETE' },
  )
}
