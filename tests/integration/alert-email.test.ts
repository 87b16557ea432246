// Email alert destinations against a local SMTP server (tests/support/smtp-server.ts): an
// incident sends one email and its recovery one, with what the webhook carries and a link to
// the source's page; a 4xx or 5xx SMTP answer is retried and logged with its code; the SMTP
// login reaches the server and never a log; membership as for webhooks. Without SMTP_URL the
// API refuses email destinations.
import { createServer, type AddressInfo, type Socket } from 'node:net'
import { describe, expect, it, vi } from 'vitest'
import { createMailer } from '../../src/server/alerts/email.ts'
import {
  destinationsPath,
  SMTP_PASSWORD,
  SMTP_USER,
  useAlerts,
} from '../support/alerts.ts'
import { ORIGIN } from '../support/app.ts'
import { startSmtpServer } from '../support/smtp-server.ts'

const alerts = useAlerts({ smtp: true })

async function withEmail(address = 'ops@example.com') {
  const member = await alerts.member()
  const created = await alerts.send(
    member.browser,
    'POST',
    destinationsPath(member.teamId),
    { email: address },
  )
  expect(created.status).toBe(201)
  return { ...member, created: created.body }
}

async function passes(n = 3) {
  for (let i = 0; i < n; i += 1) await alerts.alerts.runOnce()
}

/** A mail's headers and body, with quoted-printable soft line breaks undone. */
function parse(data: string) {
  const at = data.indexOf('\r\n\r\n')
  const headers = data.slice(0, at).replace(/\r\n[ \t]+/g, ' ')
  const body = data
    .slice(at + 4)
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    )
  const subject = /^Subject: (.*)$/im.exec(headers)?.[1] ?? ''
  return { headers, subject, body }
}

describe('email alert destinations', () => {
  it('adds an email destination (no secret) and reports email as available', async () => {
    const { browser, teamId, created } = await withEmail()
    expect(created).toMatchObject({
      url: 'mailto:ops@example.com',
      secret: null,
    })
    const settings = await alerts.send(
      browser,
      'GET',
      `/api/v1/teams/${teamId}/alert-settings`,
    )
    expect(settings.body).toMatchObject({ email_available: true })
    const cases: [unknown, RegExp][] = [
      [{ email: 'not an address' }, /not valid/],
      [{ email: `${'a'.repeat(250)}@example.com` }, /at most 254/],
      [{ email: 'ops@example.com\r\nBcc: x@example.com' }, /not valid/],
      [{ email: 'ops@example.com', url: 'https://example.com' }, /either/],
      [{}, /either/],
    ]
    for (const [body, message] of cases) {
      const answer = await alerts.send(
        browser,
        'POST',
        destinationsPath(teamId),
        body,
      )
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(JSON.stringify(answer.body), JSON.stringify(body)).toMatch(message)
    }
    // Another team's member cannot add one to this team.
    const stranger = await alerts.member()
    const foreign = await alerts.send(
      stranger.browser,
      'POST',
      destinationsPath(teamId),
      { email: 'x@example.com' },
    )
    expect(foreign.status).toBe(404)
  })

  it('emails an incident once and its recovery once, with a link to the source', async () => {
    const { teamId } = await withEmail('oncall@example.com')
    const sourceId = await alerts.source(teamId, {
      name: 'orders db',
      state: 'error',
      state_reason: 'The role has no REPLICATION attribute.',
    })
    await passes()
    const mine = () =>
      alerts.smtp.received.filter((mail) =>
        mail.to.includes('oncall@example.com'),
      )
    expect(mine()).toHaveLength(1)
    const [firing] = mine()
    expect(firing?.from).toBe('alerts@localhost')
    expect(firing?.login).toEqual({ user: SMTP_USER, pass: SMTP_PASSWORD })
    const mail = parse(firing?.data ?? '')
    expect(mail.subject).toBe('[Sluice] source_error firing: orders db')
    expect(mail.headers).toMatch(/^Content-Type: text\/plain/im)
    expect(mail.body).toContain('The role has no REPLICATION attribute.')
    expect(mail.body).toContain(`Source: orders db (${sourceId})`)
    expect(mail.body).toContain(`Team: ${teamId}`)
    expect(mail.body).toContain(`${ORIGIN}/teams/${teamId}/${sourceId}`)

    await alerts.setSource(sourceId, { state: 'active', state_reason: null })
    await passes()
    expect(mine()).toHaveLength(2)
    const resolved = parse(mine()[1]?.data ?? '')
    expect(resolved.subject).toBe('[Sluice] source_error resolved: orders db')
    expect(resolved.body).toContain('The source is active again.')
    expect(
      (await alerts.attempts(teamId)).map((row) => [
        row.state,
        row.status_code,
        row.delivered,
      ]),
    ).toEqual([
      ['firing', 250, true],
      ['resolved', 250, true],
    ])
  })

  it('retries a 4xx or 5xx SMTP answer with backoff and logs each code', async () => {
    const { browser, teamId, created } = await withEmail('retry@example.com')
    alerts.smtp.answer(451, 554)
    const queued = await alerts.send(
      browser,
      'POST',
      `${destinationsPath(teamId)}/${String(created.id)}/test`,
    )
    expect(queued.status).toBe(202)
    await vi.waitFor(async () => {
      await alerts.alerts.runOnce()
      expect(await alerts.attempts(teamId)).toHaveLength(3)
    })
    const log = await alerts.attempts(teamId)
    expect(
      log.map((row) => [
        row.attempt,
        row.status_code,
        row.delivered,
        row.error,
      ]),
    ).toEqual([
      [1, 451, false, 'The mail server answered 451.'],
      [2, 554, false, 'The mail server answered 554.'],
      [3, 250, true, null],
    ])
    const mails = alerts.smtp.received.filter((mail) =>
      mail.to.includes('retry@example.com'),
    )
    expect(mails).toHaveLength(1)
    expect(parse(mails[0]?.data ?? '').subject).toBe(
      '[Sluice] test_alert firing: no source',
    )
    expect(JSON.stringify(log)).not.toContain(SMTP_PASSWORD)
  })

  it('logs an unreachable SMTP server in its own words, never with the password', async () => {
    // A port nothing listens on: a server closed at once after taking its port.
    const closed = await startSmtpServer()
    const url = closed.url(SMTP_USER, SMTP_PASSWORD)
    await closed.close()
    const mailer = createMailer({ url, from: 'a@localhost', timeoutMs: 2_000 })
    const outcome = await mailer.send({
      to: 'x@example.com',
      subject: 's',
      text: 't',
    })
    mailer.close()
    expect(outcome).toEqual({
      statusCode: null,
      error: 'The mail server refused the connection.',
    })
  })
})

describe('a mail server that never answers', () => {
  it("is given up on within the timeout, in Sluice's words", async () => {
    // Accepts connections and says nothing: no greeting ever comes.
    const sockets = new Set<Socket>()
    const silent = createServer((socket) => sockets.add(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as AddressInfo
    const mailer = createMailer({
      url: `smtp://u:${SMTP_PASSWORD}@127.0.0.1:${port}`,
      from: 'a@localhost',
      timeoutMs: 300,
    })
    const started = Date.now()
    const outcome = await mailer.send({
      to: 'x@example.com',
      subject: 's',
      text: 't',
    })
    mailer.close()
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => silent.close(resolve))
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(outcome.statusCode).toBeNull()
    expect(outcome.error).toMatch(/^No answer from the mail server within/)
    expect(outcome.error).not.toContain(SMTP_PASSWORD)
  })
})

describe('email alerts without SMTP_URL', () => {
  it('refuses email destinations with a clear 400 and reports email as unavailable', async () => {
    const plain = alerts.buildApp({})
    const member = await alerts.member(plain)
    const answer = await alerts.send(
      member.browser,
      'POST',
      destinationsPath(member.teamId),
      { email: 'ops@example.com' },
    )
    expect(answer.status).toBe(400)
    expect(String(answer.body.message)).toMatch(
      /Email alerts are not available.*SMTP_URL/,
    )
    const settings = await alerts.send(
      member.browser,
      'GET',
      `/api/v1/teams/${member.teamId}/alert-settings`,
    )
    expect(settings.body).toMatchObject({ email_available: false })
  })
})
