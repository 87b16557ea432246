// Alert destinations through the team API against a local webhook receiver: the secret shown
// once and never listed, membership (404 for others), the address guard at creation and at
// each delivery, 'Send test alert' signed as documented, and retries with backoff logged.
import { describe, expect, it, vi } from 'vitest'
import type { AlertPayload } from '../../src/shared/alerts.ts'
import { destinationsPath, useAlerts } from '../support/alerts.ts'
import { verifySignature } from '../support/webhook-receiver.ts'

const alerts = useAlerts()

const testPath = (teamId: string, id: string) =>
  `${destinationsPath(teamId)}/${id}/test`

describe('alert destinations', () => {
  it('shows the secret once and lists destinations without it', async () => {
    const { browser, teamId, destinationId, secret, receiver } =
      await alerts.withDestination()
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/)
    const listed = await alerts.send(browser, 'GET', destinationsPath(teamId))
    expect(listed.status).toBe(200)
    expect(listed.body).toEqual([
      expect.objectContaining({ id: destinationId, url: receiver.url }),
    ])
    expect(JSON.stringify(listed.body)).not.toContain(secret)
    expect(JSON.stringify(listed.body)).not.toContain('encrypted')
    // At rest it is sealed: the column never holds the secret's text.
    const { rows } = await alerts.db.query<{ sealed: Buffer }>(
      'select encrypted_secret as sealed from alert_destinations where id = $1',
      [destinationId],
    )
    expect(rows[0]?.sealed.toString('latin1')).not.toContain(secret.slice(6))

    const deleted = await alerts.send(
      browser,
      'DELETE',
      `${destinationsPath(teamId)}/${destinationId}`,
    )
    expect(deleted.status).toBe(200)
    expect(typeof deleted.body.txid).toBe('number')
    const after = await alerts.send(browser, 'GET', destinationsPath(teamId))
    expect(after.body).toEqual([])
  })

  it('answers 404 to anyone not a member of the team', async () => {
    const { teamId, destinationId, receiver } = await alerts.withDestination()
    const stranger = await alerts.member()
    const paths: [string, string, unknown?][] = [
      ['GET', destinationsPath(teamId)],
      ['POST', destinationsPath(teamId), { url: receiver.url }],
      ['DELETE', `${destinationsPath(teamId)}/${destinationId}`],
      ['POST', testPath(teamId, destinationId)],
      ['GET', `/api/v1/teams/${teamId}/alert-settings`],
    ]
    for (const [method, path, body] of paths) {
      const answer = await alerts.send(stranger.browser, method, path, body)
      expect(answer.status, `${method} ${path}`).toBe(404)
    }
    // Nor can a member reach another team's destination through their own team.
    const own = await alerts.send(
      stranger.browser,
      'POST',
      testPath(stranger.teamId, destinationId),
    )
    expect(own.status).toBe(404)
    expect(receiver.received).toHaveLength(0)
  })

  it('refuses URLs that are not https, carry credentials, or reach private addresses', async () => {
    const hosted = alerts.buildApp(
      { ALLOW_PRIVATE_DATABASE_TARGETS: 'false' },
      { databaseChecks: { resolve: async () => ['10.1.2.3'] } },
    )
    const member = await alerts.member(hosted)
    const cases: [string, RegExp][] = [
      ['http://127.0.0.1:9/hook', /must start with https/],
      ['https://127.0.0.1/hook', /not allowed/],
      ['https://10.0.0.8/hook', /not allowed/],
      ['https://hooks.example.com/hook', /not allowed/],
      ['https://user:pw@hooks.example.com/hook', /user name or password/],
      ['not a url', /not a valid URL/],
    ]
    for (const [url, message] of cases) {
      const answer = await alerts.send(
        member.browser,
        'POST',
        destinationsPath(member.teamId),
        { url },
      )
      expect(answer.status, url).toBe(400)
      expect(String(answer.body.message), url).toMatch(message)
    }
    // Metadata addresses are refused even where private ones are allowed.
    const local = await alerts.member()
    const metadata = await alerts.send(
      local.browser,
      'POST',
      destinationsPath(local.teamId),
      { url: 'https://169.254.169.254/latest' },
    )
    expect(metadata.status).toBe(400)
  })

  it('checks the address again at every delivery', async () => {
    // An app whose route kicks no worker: the test runs a hosted server's worker instead, for
    // which the destination (loopback) is no longer reachable.
    const quiet = alerts.buildApp({})
    const member = await alerts.member(quiet)
    const receiver = await alerts.receiver()
    const created = await alerts.send(
      member.browser,
      'POST',
      destinationsPath(member.teamId),
      { url: receiver.url },
    )
    const queued = await alerts.send(
      member.browser,
      'POST',
      testPath(member.teamId, String(created.body.id)),
    )
    expect(queued.status).toBe(202)
    const hostedWorker = alerts.worker(false)
    await hostedWorker.runOnce()
    await hostedWorker.stop()
    const [first] = await alerts.attempts(member.teamId)
    expect(first).toMatchObject({ attempt: 1, delivered: false })
    expect(first?.error).toMatch(/must start with https/)
    expect(receiver.received).toHaveLength(0)
  })

  it("sends a signed test alert on 'Send test alert'", async () => {
    const { browser, teamId, destinationId, secret, receiver } =
      await alerts.withDestination()
    const queued = await alerts.send(
      browser,
      'POST',
      testPath(teamId, destinationId),
    )
    expect(queued.status).toBe(202)
    // The route kicks the worker: no pass is run by the test.
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1))
    const [request] = receiver.received
    const timestamp = String(request?.headers['sluice-timestamp'])
    const signature = String(request?.headers['sluice-signature'])
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60)
    expect(
      verifySignature(secret, timestamp, request?.body ?? '', signature),
    ).toBe(true)
    expect(
      verifySignature('whsec_wrong', timestamp, request?.body ?? '', signature),
    ).toBe(false)
    const payload = JSON.parse(request?.body ?? '') as AlertPayload
    expect(payload).toMatchObject({
      team_id: teamId,
      source_id: null,
      event: 'test_alert',
      state: 'firing',
      message: 'This is a test alert from Sluice.',
    })
    expect(payload.id).toMatch(/^[0-9a-f-]{36}$/)
    await vi.waitFor(async () =>
      expect(await alerts.attempts(teamId)).toEqual([
        expect.objectContaining({
          event: 'test_alert',
          attempt: 1,
          status_code: 200,
          delivered: true,
        }),
      ]),
    )
  })

  it('retries with backoff and logs every attempt', async () => {
    const { browser, teamId, destinationId, receiver } =
      await alerts.withDestination()
    receiver.answer(500, 500)
    await alerts.send(browser, 'POST', testPath(teamId, destinationId))
    await vi.waitFor(async () => {
      await alerts.alerts.runOnce()
      expect(await alerts.attempts(teamId)).toHaveLength(3)
    })
    const log = await alerts.attempts(teamId)
    expect(
      log.map((row) => [row.attempt, row.status_code, row.delivered]),
    ).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 200, true],
    ])
    expect(log[0]?.error).toBe('The destination answered 500.')
    // One alert: every retry carries the same payload id.
    const ids = receiver.received.map(
      (r) => (JSON.parse(r.body) as AlertPayload).id,
    )
    expect(new Set(ids).size).toBe(1)
    // The waits between attempts are the configured delays.
    const { rows } = await alerts.db.query<{ gap_ms: number }>(
      `select (extract(epoch from attempted_at - lag(attempted_at) over (order by attempt)) * 1000)::float8 as gap_ms
         from alert_delivery_attempts where team_id = $1 order by attempt`,
      [teamId],
    )
    for (const row of rows.slice(1))
      expect(row.gap_ms).toBeGreaterThanOrEqual(20)
  })

  it('gives up once the delays are used up', async () => {
    const { browser, teamId, destinationId, receiver } =
      await alerts.withDestination()
    receiver.answer(503, 503, 503, 503)
    await alerts.send(browser, 'POST', testPath(teamId, destinationId))
    await vi.waitFor(async () => {
      await alerts.alerts.runOnce()
      const { rows } = await alerts.db.query<{ status: string }>(
        'select status from alert_deliveries where team_id = $1',
        [teamId],
      )
      expect(rows).toEqual([{ status: 'failed' }])
    })
    expect(await alerts.attempts(teamId)).toHaveLength(4)
  })

  it('prunes the delivery log past 30 days', async () => {
    const { browser, teamId, destinationId, receiver } =
      await alerts.withDestination()
    await alerts.send(browser, 'POST', testPath(teamId, destinationId))
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1))
    await vi.waitFor(async () =>
      expect(await alerts.attempts(teamId)).toHaveLength(1),
    )
    await alerts.db.query(
      `update alert_deliveries set created_at = now() - interval '31 days'
        where team_id = $1`,
      [teamId],
    )
    // A new worker prunes on its first pass.
    const fresh = alerts.worker(true)
    await fresh.runOnce()
    await fresh.stop()
    expect(await alerts.attempts(teamId)).toEqual([])
  })
})
