// What the alert monitor decides from one look at the sources, pure: which incidents open and
// which resolve. An incident is (team, source, kind); it opens when its condition holds and
// none is open, and resolves on recovery (the source active again, the warning gone, the
// forecast null or back above the threshold, the removal done). A source deleted meanwhile closes its incidents without an alert, except
// delete_failed, which is exactly about the removal.
import type { AlertKind } from '../../shared/alerts.ts'
import {
  formatDuration,
  invalidatedIn,
} from '../../shared/wal-forecast-text.ts'

/** Where each source stands, with its team's thresholds. */
export type SourceCondition = {
  sourceId: string
  teamId: string
  deleted: boolean
  state: string
  reason: string | null
  walStatus: string | null
  retainedBytes: number | null
  thresholdBytes: number
  reconnectingMinutes: number
  /** How long the source has been reconnecting (ms); null when it is not. */
  reconnectingForMs: number | null
  /** wal_forecast_seconds: null when the slot is not falling behind or has no limit. */
  forecastSeconds: number | null
  forecastThresholdSeconds: number
}

export type OpenIncident = {
  id: string
  teamId: string
  sourceId: string
  kind: AlertKind
}

export type IncidentPlan = {
  open: { teamId: string; sourceId: string; kind: AlertKind; message: string }[]
  resolve: { incident: OpenIncident; message: string | null }[]
}

const RISKY_WAL = new Set(['extended', 'unreserved', 'lost'])

function firing(c: SourceCondition): Map<AlertKind, string> {
  const kinds = new Map<AlertKind, string>()
  if (c.deleted) {
    if (c.state === 'error')
      kinds.set(
        'delete_failed',
        c.reason ?? 'The source could not be removed from its database.',
      )
    return kinds
  }
  if (c.state === 'error')
    kinds.set('source_error', c.reason ?? 'The source stopped with an error.')
  if (c.walStatus !== null && RISKY_WAL.has(c.walStatus))
    kinds.set(
      'replication_health_warning',
      `The replication slot's WAL status is ${c.walStatus}.`,
    )
  else if (c.retainedBytes !== null && c.retainedBytes >= c.thresholdBytes)
    kinds.set(
      'replication_health_warning',
      `The replication slot retains ${c.retainedBytes} bytes of WAL, past the team's threshold of ${c.thresholdBytes}.`,
    )
  if (
    c.forecastSeconds !== null &&
    c.forecastSeconds < c.forecastThresholdSeconds
  )
    kinds.set(
      'wal_forecast_warning',
      `At the current rate the replication slot would be invalidated ${invalidatedIn(c.forecastSeconds)}, ` +
        `within the team's threshold of ${formatDuration(c.forecastThresholdSeconds)}.`,
    )
  if (
    c.state === 'reconnecting' &&
    c.reconnectingForMs !== null &&
    c.reconnectingForMs >= c.reconnectingMinutes * 60_000
  )
    kinds.set(
      'source_reconnecting',
      `The source has been reconnecting for more than ${c.reconnectingMinutes} minutes` +
        (c.reason ? `: ${c.reason}` : '.'),
    )
  return kinds
}

/** The recovery message when `incident` has recovered, null while it has not. */
function recovery(
  kind: AlertKind,
  c: SourceCondition,
  now: Map<AlertKind, string>,
): string | null {
  switch (kind) {
    case 'source_error':
    case 'source_reconnecting':
      return c.state === 'active' ? 'The source is active again.' : null
    case 'replication_health_warning':
      return now.has(kind) ? null : 'Replication health is back to normal.'
    case 'wal_forecast_warning':
      return now.has(kind)
        ? null
        : `The replication slot is no longer forecast to be invalidated within the team's threshold of ${formatDuration(c.forecastThresholdSeconds)}.`
    case 'delete_failed':
      return c.deleted && c.state === 'error' ? null : 'The source was removed.'
  }
}

export function planIncidents(
  sources: SourceCondition[],
  openIncidents: OpenIncident[],
): IncidentPlan {
  const plan: IncidentPlan = { open: [], resolve: [] }
  const bySource = new Map(sources.map((s) => [s.sourceId, s]))
  const isOpen = new Set(
    openIncidents.map((i) => `${i.teamId}/${i.sourceId}/${i.kind}`),
  )
  for (const incident of openIncidents) {
    const source = bySource.get(incident.sourceId)
    if (!source || source.teamId !== incident.teamId) {
      // The row is gone (removed or forgotten) or moved team: only a failed removal had
      // anything left to recover from.
      plan.resolve.push({
        incident,
        message:
          incident.kind === 'delete_failed' ? 'The source was removed.' : null,
      })
      continue
    }
    if (source.deleted && incident.kind !== 'delete_failed') {
      plan.resolve.push({ incident, message: null })
      continue
    }
    const message = recovery(incident.kind, source, firing(source))
    if (message !== null) plan.resolve.push({ incident, message })
  }
  for (const source of sources)
    for (const [kind, message] of firing(source))
      if (!isOpen.has(`${source.teamId}/${source.sourceId}/${kind}`))
        plan.open.push({
          teamId: source.teamId,
          sourceId: source.sourceId,
          kind,
          message,
        })
  return plan
}
