// A team's alert calls (issue 19): add and delete a destination, send a test alert, read and
// save the thresholds, through the app's one fetch wrapper. Destination lists are never read
// here: the team page reads the synced store. The thresholds are not synced: read here.
import {
  alertSettingsResponseSchema,
  alertSettingsSchema,
  createAlertDestinationResponseSchema,
  deleteAlertDestinationResponseSchema,
  testAlertResponseSchema,
  type AlertSettings,
} from '../../../shared/alerts.ts'
import { api } from '../../lib/api.ts'

const destinationsPath = (teamId: string) =>
  `/api/v1/teams/${encodeURIComponent(teamId)}/alert-destinations`

const destinationPath = (teamId: string, id: string) =>
  `${destinationsPath(teamId)}/${encodeURIComponent(id)}`

/** `{url}` adds a webhook, `{email}` an email address. */
export function createAlertDestination(
  teamId: string,
  target: { url: string } | { email: string },
) {
  return api(destinationsPath(teamId), createAlertDestinationResponseSchema, {
    method: 'POST',
    body: target,
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

const settingsPath = (teamId: string) =>
  `/api/v1/teams/${encodeURIComponent(teamId)}/alert-settings`

export function getAlertSettings(teamId: string, signal?: AbortSignal) {
  return api(settingsPath(teamId), alertSettingsResponseSchema, { signal })
}

export function saveAlertSettings(teamId: string, settings: AlertSettings) {
  return api(settingsPath(teamId), alertSettingsSchema, {
    method: 'PUT',
    body: settings,
  })
}
