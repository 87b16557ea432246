// The alert monitor against a local webhook receiver: each kind of incident alerts once while
// it persists and once when it recovers (dedupe key: team, source, kind), the team's
// thresholds apply, and a removed source's incidents close. Source rows are written directly:
// the monitor reads the sources table, whatever wrote it.
import { describe, expect, it } from 'vitest'
import type { AlertPayload } from '../../src/shared/alerts.ts'
import { useAlerts } from '../support/alerts.ts'

const alerts = useAlerts()

/** Runs the monitor and sends what is due, a few times over: a persisting condition must not alert again. */
async function passes(n = 3) {
  for (let i = 0; i < n; i += 1) await alerts.alerts.runOnce()
}

const payloads = (received: { body: string }[]) =>
  received.map((r) => JSON.parse(r.body) as AlertPayload)

describe('alert incidents', () => {
  it('sends one alert for a persisting error and one on recovery', async () => {
    const { teamId, receiver } = await alerts.withDestination()
    const sourceId = await alerts.source(teamId, {
      state: 'error',
      state_reason: 'The role has no REPLICATION attribute.',
    })
    await passes()
    expect(payloads(receiver.received)).toEqual([
      expect.objectContaining({
        team_id: teamId,
        source_id: sourceId,
        event: 'source_error',
        state: 'firing',
        message: 'The role has no REPLICATION attribute.',
      }),
    ])
    // Still in error with another reason, or reconnecting: the same incident, no alert.
    await alerts.setSource(sourceId, { state: 'reconnecting' })
    await passes()
    expect(receiver.received).toHaveLength(1)
    await alerts.setSource(sourceId, { state: 'active', state_reason: null })
    await passes()
    const sent = payloads(receiver.received)
    expect(sent.map((p) => [p.event, p.state])).toEqual([
      ['source_error', 'firing'],
      ['source_error', 'resolved'],
    ])
    expect(sent[1]?.message).toBe('The source is active again.')
    expect(sent[0]?.id).not.toBe(sent[1]?.id)
    // A new error after the recovery is a new incident.
    await alerts.setSource(sourceId, { state: 'error', state_reason: 'again' })
    await passes()
    expect(receiver.received).toHaveLength(3)
    const { rows } = await alerts.db.query<{ open: boolean }>(
      `select resolved_at is null as open from alert_incidents
        where source_id = $1 order by opened_at`,
      [sourceId],
    )
    expect(rows).toEqual([{ open: false }, { open: true }])
  })

  it('warns on risky WAL status and on retained WAL past the team threshold', async () => {
    const { browser, teamId, receiver } = await alerts.withDestination()
    const sourceId = await alerts.source(teamId, {
      state: 'active',
      wal_status: 'reserved',
      wal_retained_bytes: 5000,
    })
    await passes()
    expect(receiver.received).toHaveLength(0)
    const settings = await alerts.send(
      browser,
      'PUT',
      `/api/v1/teams/${teamId}/alert-settings`,
      { wal_retained_threshold_bytes: 4096, reconnecting_minutes: 5 },
    )
    expect(settings.status).toBe(200)
    await passes()
    expect(payloads(receiver.received)).toEqual([
      expect.objectContaining({
        event: 'replication_health_warning',
        state: 'firing',
        message: expect.stringContaining('5000 bytes') as string,
      }),
    ])
    // Lost WAL while still warning: the same incident.
    await alerts.setSource(sourceId, { wal_status: 'lost' })
    await passes()
    expect(receiver.received).toHaveLength(1)
    await alerts.setSource(sourceId, {
      wal_status: 'reserved',
      wal_retained_bytes: 10,
    })
    await passes()
    expect(payloads(receiver.received).map((p) => p.state)).toEqual([
      'firing',
      'resolved',
    ])
  })

  it("warns when the WAL forecast drops below the team's threshold, set within its bounds", async () => {
    const { browser, teamId, receiver } = await alerts.withDestination()
    const path = `/api/v1/teams/${teamId}/alert-settings`
    const sourceId = await alerts.source(teamId, {
      state: 'active',
      wal_forecast_seconds: 2 * 3600,
    })
    // Two hours left, the default threshold is one: nothing yet.
    await passes()
    expect(receiver.received).toHaveLength(0)
    expect((await alerts.send(browser, 'GET', path)).body).toMatchObject({
      wal_forecast_threshold_seconds: 3600,
    })
    for (const seconds of [59, 7 * 86_400 + 1, 90.5, '3600']) {
      const refused = await alerts.send(browser, 'PUT', path, {
        wal_retained_threshold_bytes: 1024,
        reconnecting_minutes: 5,
        wal_forecast_threshold_seconds: seconds,
      })
      expect(refused.status, String(seconds)).toBe(400)
      expect(JSON.stringify(refused.body)).toContain(
        'wal_forecast_threshold_seconds',
      )
    }
    const saved = await alerts.send(browser, 'PUT', path, {
      wal_retained_threshold_bytes: 1024 ** 3,
      reconnecting_minutes: 5,
      wal_forecast_threshold_seconds: 3 * 3600,
    })
    expect(saved).toMatchObject({
      status: 200,
      body: { wal_forecast_threshold_seconds: 3 * 3600 },
    })
    // A body without it (a client from before it) keeps the stored one.
    const kept = await alerts.send(browser, 'PUT', path, {
      wal_retained_threshold_bytes: 1024 ** 3,
      reconnecting_minutes: 6,
    })
    expect(kept.body).toEqual({
      wal_retained_threshold_bytes: 1024 ** 3,
      reconnecting_minutes: 6,
      wal_forecast_threshold_seconds: 3 * 3600,
    })
    await passes()
    expect(payloads(receiver.received)).toEqual([
      expect.objectContaining({
        source_id: sourceId,
        event: 'wal_forecast_warning',
        state: 'firing',
        message:
          "At the current rate the replication slot would be invalidated in about 2 h, within the team's threshold of 3 h.",
      }),
    ])
    await alerts.setSource(sourceId, { wal_forecast_seconds: 600 })
    await passes()
    expect(receiver.received).toHaveLength(1)
    await alerts.setSource(sourceId, { wal_forecast_seconds: null })
    await passes()
    expect(payloads(receiver.received).map((p) => [p.event, p.state])).toEqual([
      ['wal_forecast_warning', 'firing'],
      ['wal_forecast_warning', 'resolved'],
    ])
  })

  it("alerts on reconnecting only past the team's minutes", async () => {
    const { teamId, receiver } = await alerts.withDestination()
    const sourceId = await alerts.source(teamId, {
      state: 'reconnecting',
      state_reason: 'The database did not answer.',
    })
    const reconnectingSince = async (minutesAgo: number) =>
      alerts.db.query(
        `insert into source_event_logs (source_id, event_name, instance_id, emitted_at)
         values ($1, 'source_reconnecting', 'test', now() - make_interval(mins => $2))`,
        [sourceId, minutesAgo],
      )
    await reconnectingSince(2)
    await passes()
    expect(receiver.received).toHaveLength(0)
    await alerts.db.query(
      'delete from source_event_logs where source_id = $1',
      [sourceId],
    )
    await reconnectingSince(6)
    await passes()
    expect(payloads(receiver.received)).toEqual([
      expect.objectContaining({
        event: 'source_reconnecting',
        state: 'firing',
        message:
          'The source has been reconnecting for more than 5 minutes: The database did not answer.',
      }),
    ])
    await alerts.setSource(sourceId, { state: 'active', state_reason: null })
    await passes()
    expect(payloads(receiver.received).map((p) => p.state)).toEqual([
      'firing',
      'resolved',
    ])
  })

  it('alerts on a failed removal and recovers when the source is gone', async () => {
    const { teamId, receiver } = await alerts.withDestination()
    const sourceId = await alerts.source(teamId, { state: 'error' })
    await passes()
    await alerts.setSource(sourceId, {
      deleted_at: new Date(),
      state_reason: 'The slot could not be dropped.',
    })
    await passes()
    await alerts.db.query('delete from sources where id = $1', [sourceId])
    await passes()
    // The source_error incident closes silently when the source is deleted.
    expect(
      payloads(receiver.received).map((p) => [p.event, p.state, p.message]),
    ).toEqual([
      ['source_error', 'firing', 'The source stopped with an error.'],
      ['delete_failed', 'firing', 'The slot could not be dropped.'],
      ['delete_failed', 'resolved', 'The source was removed.'],
    ])
  })
})
