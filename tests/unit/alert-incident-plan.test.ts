// The alert monitor's pure decision: which incidents open and which resolve, and with which
// message (null: closed without an alert).
import { describe, expect, it } from 'vitest'
import {
  planIncidents,
  type OpenIncident,
  type SourceCondition,
} from '../../src/server/alerts/incident-plan.ts'

const base: SourceCondition = {
  sourceId: 's1',
  teamId: 't1',
  deleted: false,
  state: 'active',
  reason: null,
  walStatus: 'reserved',
  retainedBytes: 0,
  thresholdBytes: 1000,
  reconnectingMinutes: 5,
  reconnectingForMs: null,
  forecastSeconds: null,
  forecastThresholdSeconds: 3600,
}
const source = (over: Partial<SourceCondition>) => ({ ...base, ...over })
const open = (kind: OpenIncident['kind']): OpenIncident => ({
  id: `i-${kind}`,
  teamId: 't1',
  sourceId: 's1',
  kind,
})

describe('planIncidents', () => {
  it('opens an incident once: not again while it is open', () => {
    const erroring = [source({ state: 'error', reason: 'no rights' })]
    expect(planIncidents(erroring, []).open).toEqual([
      {
        teamId: 't1',
        sourceId: 's1',
        kind: 'source_error',
        message: 'no rights',
      },
    ])
    expect(planIncidents(erroring, [open('source_error')])).toEqual({
      open: [],
      resolve: [],
    })
  })

  it('resolves an error only once the source is active', () => {
    const incident = open('source_error')
    expect(
      planIncidents([source({ state: 'reconnecting' })], [incident]).resolve,
    ).toEqual([])
    expect(planIncidents([source({})], [incident]).resolve).toEqual([
      { incident, message: 'The source is active again.' },
    ])
  })

  it('alerts on reconnecting only past the minutes', () => {
    const at = (ms: number) =>
      planIncidents(
        [source({ state: 'reconnecting', reconnectingForMs: ms })],
        [],
      ).open
    expect(at(5 * 60_000 - 1)).toEqual([])
    expect(at(5 * 60_000).map((o) => o.kind)).toEqual(['source_reconnecting'])
  })

  it('warns on risky wal_status or retained WAL at the threshold, until neither holds', () => {
    expect(
      planIncidents([source({ walStatus: 'unreserved' })], []).open,
    ).toHaveLength(1)
    expect(planIncidents([source({ retainedBytes: 999 })], []).open).toEqual([])
    expect(
      planIncidents([source({ retainedBytes: 1000 })], []).open,
    ).toHaveLength(1)
    const incident = open('replication_health_warning')
    expect(
      planIncidents([source({ retainedBytes: 1000 })], [incident]).resolve,
    ).toEqual([])
    expect(planIncidents([source({})], [incident]).resolve).toEqual([
      { incident, message: 'Replication health is back to normal.' },
    ])
  })

  it('warns when the WAL forecast drops below the threshold, once, until it is null or back above', () => {
    expect(planIncidents([source({ forecastSeconds: 3600 })], []).open).toEqual(
      [],
    )
    expect(
      planIncidents([source({ forecastSeconds: 42 * 60 })], []).open,
    ).toEqual([
      {
        teamId: 't1',
        sourceId: 's1',
        kind: 'wal_forecast_warning',
        message:
          "At the current rate the replication slot would be invalidated in about 42 min, within the team's threshold of 1 h.",
      },
    ])
    // The team's threshold, not the default.
    expect(
      planIncidents(
        [source({ forecastSeconds: 7200, forecastThresholdSeconds: 3 * 3600 })],
        [],
      ).open.map((o) => o.kind),
    ).toEqual(['wal_forecast_warning'])
    const incident = open('wal_forecast_warning')
    // Still below (closer or not): the same incident, nothing new.
    expect(
      planIncidents([source({ forecastSeconds: 10 })], [incident]),
    ).toEqual({ open: [], resolve: [] })
    const recovered = {
      incident,
      message:
        "The replication slot is no longer forecast to be invalidated within the team's threshold of 1 h.",
    }
    expect(
      planIncidents([source({ forecastSeconds: null })], [incident]).resolve,
    ).toEqual([recovered])
    expect(
      planIncidents([source({ forecastSeconds: 3600 })], [incident]).resolve,
    ).toEqual([recovered])
  })

  it('closes a deleted source incidents silently, except a failed removal', () => {
    const deleted = source({
      deleted: true,
      state: 'error',
      reason: 'slot busy',
    })
    const plan = planIncidents([deleted], [open('source_error')])
    expect(plan.resolve).toEqual([
      { incident: open('source_error'), message: null },
    ])
    expect(plan.open).toEqual([
      {
        teamId: 't1',
        sourceId: 's1',
        kind: 'delete_failed',
        message: 'slot busy',
      },
    ])
    expect(planIncidents([], [open('delete_failed')]).resolve).toEqual([
      { incident: open('delete_failed'), message: 'The source was removed.' },
    ])
    expect(planIncidents([], [open('source_error')]).resolve).toEqual([
      { incident: open('source_error'), message: null },
    ])
  })
})
