// 'Send test alert' is limited per destination and per team: each one queues a delivery that
// is retried, so unlimited ones make Sluice a cannon aimed at the destination's host. Past a
// limit the answer is 429 with Retry-After, and nothing is queued.
import { describe, expect, it } from 'vitest'
import {
  TEST_ALERTS_PER_DESTINATION_PER_MINUTE,
  TEST_ALERTS_PER_TEAM_PER_MINUTE,
} from '../../src/server/platform/limits.ts'
import { destinationsPath, useAlerts, type Member } from '../support/alerts.ts'

const alerts = useAlerts()

const sendTest = (member: Member, destinationId: string) =>
  member.browser.request(
    `${destinationsPath(member.teamId)}/${destinationId}/test`,
    { method: 'POST', headers: { origin: member.browser.origin } },
  )

async function queued(teamId: string): Promise<number> {
  const { rows } = await alerts.db.query<{ n: number }>(
    'select count(*)::int as n from alert_deliveries where team_id = $1',
    [teamId],
  )
  return rows[0]?.n ?? 0
}

async function addDestination(member: Member): Promise<string> {
  const target = await alerts.receiver()
  const created = await alerts.send(
    member.browser,
    'POST',
    destinationsPath(member.teamId),
    { url: target.url },
  )
  expect(created.status).toBe(201)
  return String(created.body.id)
}

describe('test alerts', () => {
  it('are limited per destination', async () => {
    const owner = await alerts.withDestination()
    const statuses: number[] = []
    for (let i = 0; i < TEST_ALERTS_PER_DESTINATION_PER_MINUTE + 3; i++)
      statuses.push((await sendTest(owner, owner.destinationId)).status)
    expect(statuses).toEqual([
      ...Array<number>(TEST_ALERTS_PER_DESTINATION_PER_MINUTE).fill(202),
      429,
      429,
      429,
    ])
    const refused = await sendTest(owner, owner.destinationId)
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/)
    expect(await refused.json()).toEqual({
      message:
        'Too many test alerts in a short time; please try again in a minute.',
    })
    expect(await queued(owner.teamId)).toBe(
      TEST_ALERTS_PER_DESTINATION_PER_MINUTE,
    )
  })

  it('are limited per team, across its destinations; another team keeps its own', async () => {
    const owner = await alerts.member()
    let sent = 0
    while (sent < TEST_ALERTS_PER_TEAM_PER_MINUTE) {
      const id = await addDestination(owner)
      for (
        let i = 0;
        i < TEST_ALERTS_PER_DESTINATION_PER_MINUTE &&
        sent < TEST_ALERTS_PER_TEAM_PER_MINUTE;
        i++, sent++
      )
        expect((await sendTest(owner, id)).status).toBe(202)
    }
    const fresh = await addDestination(owner)
    const refused = await sendTest(owner, fresh)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/)
    expect(await queued(owner.teamId)).toBe(TEST_ALERTS_PER_TEAM_PER_MINUTE)

    const other = await alerts.withDestination()
    expect((await sendTest(other, other.destinationId)).status).toBe(202)
  })
})
