// A team's alert calls (issue 19): add and delete a destination, send a test alert, through the
// app's one fetch wrapper. Lists are never read here: the team page reads the synced store.
import {
  createAlertDestinationResponseSchema,
  deleteAlertDestinationResponseSchema,
  testAlertResponseSchema,
} from '../../../shared/alerts.ts'
import { api } from '../../lib/api.ts'

const destinationsPath = (teamId: string) =>
  `/api/v1/teams/${encodeURIComponent(teamId)}/alert-destinations`

const destinationPath = (teamId: string, id: string) =>
  `${destinationsPath(teamId)}/${encodeURIComponent(id)}`

export function createAlertDestination(teamId: string, url: string) {
  return api(destinationsPath(teamId), createAlertDestinationResponseSchema, {
    method: 'POST',
    body: { url },
  })
}

export function deleteAlertDestination(teamId: string, id: string) {
  return api(
    destinationPath(teamId, id),
    deleteAlertDestinationResponseSchema,
    { method: 'DELETE' },
  )
}

export function sendTestAlert(teamId: string, id: string) {
  return api(`${destinationPath(teamId, id)}/test`, testAlertResponseSchema, {
    method: 'POST',
  })
}
