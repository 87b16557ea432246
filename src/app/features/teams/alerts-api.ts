// A team's alert calls: add and delete a destination, send a test alert, read and
// save the thresholds, through the app's one fetch wrapper. Destination lists are never read
// here: the team page reads the synced store. The thresholds are not synced: read here.
import type { AlertSettings } from '../../../shared/alerts.ts'
import { alertCalls } from '../../../shared/api-calls.ts'
import { api } from '../../lib/api.ts'

/** `{url}` adds a webhook, `{email}` an email address. */
export function createAlertDestination(
  teamId: string,
  target: { url: string } | { email: string },
) {
  const { method, path, response } = alertCalls.createDestination
  return api(path(teamId), response, { method, body: target })
}

export function deleteAlertDestination(teamId: string, id: string) {
  const { method, path, response } = alertCalls.deleteDestination
  return api(path(teamId, id), response, { method })
}

export function sendTestAlert(teamId: string, id: string) {
  const { method, path, response } = alertCalls.sendTest
  return api(path(teamId, id), response, { method })
}

export function getAlertSettings(teamId: string, signal?: AbortSignal) {
  const { method, path, response } = alertCalls.readSettings
  return api(path(teamId), response, { method, signal })
}

export function saveAlertSettings(teamId: string, settings: AlertSettings) {
  const { method, path, response } = alertCalls.saveSettings
  return api(path(teamId), response, { method, body: settings })
}
