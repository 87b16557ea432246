// An alert's email text: the subject names event, state and source on one header line
// whatever the source's name holds, the body carries what the webhook does and the link; and
// the default sender is alerts@ the public origin's host.
import { describe, expect, it } from 'vitest'
import { alertEmail, defaultFrom } from '../../src/server/alerts/email.ts'
import type { AlertPayload } from '../../src/shared/alerts.ts'

const payload: AlertPayload = {
  id: '11111111-1111-4111-8111-111111111111',
  team_id: '22222222-2222-4222-8222-222222222222',
  source_id: '33333333-3333-4333-8333-333333333333',
  event: 'replication_health_warning',
  state: 'resolved',
  message: 'Replication health is back to normal.',
  occurred_at: '2026-11-24T08:00:00.000Z',
}

describe('alertEmail', () => {
  it('names the event, state and source in the subject, the rest in the body', () => {
    const link = 'https://sluice.example.com/teams/t/s'
    const mail = alertEmail(payload, { name: 'orders', link })
    expect(mail.subject).toBe(
      '[Sluice] replication_health_warning resolved: orders',
    )
    for (const text of [
      payload.message,
      'Event: replication_health_warning',
      'State: resolved',
      `Source: orders (${payload.source_id})`,
      `Team: ${payload.team_id}`,
      `Occurred at: ${payload.occurred_at}`,
      `Alert id: ${payload.id}`,
      `Source page: ${link}`,
    ])
      expect(mail.text).toContain(text)
  })

  it('keeps a name with line breaks on the subject line, and falls back to the id', () => {
    const broken = alertEmail(payload, {
      name: 'orders\r\nBcc: someone@example.com',
      link: null,
    })
    expect(broken.subject).toBe(
      '[Sluice] replication_health_warning resolved: orders Bcc: someone@example.com',
    )
    expect(alertEmail(payload, { name: null, link: null }).subject).toBe(
      `[Sluice] replication_health_warning resolved: ${payload.source_id}`,
    )
    const test = alertEmail(
      { ...payload, source_id: null, event: 'test_alert', state: 'firing' },
      { name: null, link: null },
    )
    expect(test.subject).toBe('[Sluice] test_alert firing: no source')
    expect(test.text).not.toContain('Source page:')
  })

  it('sends from alerts@ the public host by default', () => {
    expect(defaultFrom('https://sluice.example.com')).toBe(
      'alerts@sluice.example.com',
    )
    expect(defaultFrom('http://localhost:5133')).toBe('alerts@localhost')
  })
})
