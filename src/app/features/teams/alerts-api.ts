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
import {
  alertDestinationPath,
  alertDestinationsPath,
  alertSettingsPath,
  testAlertPath,
} from '../../../shared/api-routes.ts'

/** `{url}` adds a webhook, `{email}` an email address. */
export function createAlertDestination(
  teamId: string,
  target: { url: string } | { email: string },
) {
  return api(
    alertDestinationsPath(teamId),
    createAlertDestinationResponseSchema,
    {
      method: 'POST',
      body: target,
    },
  )
}

export function deleteAlertDestination(teamId: string, id: string) {
  return api(
    alertDestinationPath(teamId, id),
    deleteAlertDestinationResponseSchema,
    { method: 'DELETE' },
  )
}

export function sendTestAlert(teamId: string, id: string) {
  return api(testAlertPath(teamId, id), testAlertResponseSchema, {
    method: 'POST',
  })
}

export function getAlertSettings(teamId: string, signal?: AbortSignal) {
  return api(alertSettingsPath(teamId), alertSettingsResponseSchema, { signal })
}

export function saveAlertSettings(teamId: string, settings: AlertSettings) {
  return api(alertSettingsPath(teamId), alertSettingsSchema, {
    method: 'PUT',
    body: settings,
  })
}
