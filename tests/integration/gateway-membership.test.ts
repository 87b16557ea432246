// A member removed from a team while a long-poll on one of its shapes is open: the answer is
// the 404 their next request would get, never a row written after they left.
import { describe, expect, it, vi } from 'vitest'
import {
  addMembership,
  removeMembership,
} from '../../src/server/teams/teams.ts'
import {
  signInLocally,
  TEST_SOURCE_PASSWORD_KEY,
  type Browser,
} from '../support/app.ts'
import { useGatewayApp } from '../support/gateway-app.ts'
import { insertSource, personalTeam } from '../support/sources.ts'

const gateway = useGatewayApp('membership')
const database = gateway.database

/** A long-poll at the shape's tail, parked past every check made when it arrived (the
 * promise in an object: an async function would wait for the answer it returned). */
async function openLongPoll(browser: Browser, path: string) {
  const first = await browser.get(`${path}&offset=-1`)
  expect(first.status, path).toBe(200)
  const handle = first.headers.get('electric-handle') ?? ''
  const tail = await browser.get(
    `${path}&offset=${first.headers.get('electric-offset')}&handle=${handle}`,
  )
  const parked = gateway.shapes.byHandle(handle)?.waitingRequests ?? 0
  const live = browser.get(
    `${path}&offset=${tail.headers.get('electric-offset')}&handle=${handle}&live=true`,
  )
  await vi.waitFor(() =>
    expect(gateway.shapes.byHandle(handle)?.waitingRequests).toBe(parked + 1),
  )
  return { live }
}

const addSource = (teamId: string) =>
  insertSource(
    database.db,
    TEST_SOURCE_PASSWORD_KEY,
    teamId,
    'postgres://app:pw@db.example.com/app',
  )

const logEvent = (sourceId: string, name: string) =>
  database.db.query(
    `insert into source_event_logs (source_id, event_name, instance_id)
     values ($1, $2, 'i-1')`,
    [sourceId, name],
  )

/** An owner's team with a second member in it, and a source of the team. */
async function teamOfTwo() {
  const owner = await signInLocally(gateway.app, 'Owner', undefined)
  const member = await signInLocally(gateway.app, 'Member', undefined)
  const teamId = await personalTeam(database.db, owner.user.id)
  await addMembership(database.db, teamId, member.user.id)
  const { id: sourceId } = await addSource(teamId)
  return { owner, member, teamId, sourceId }
}

describe('a member removed during a long-poll', () => {
  it("gets 404 on the team's sources, never the source added after", async () => {
    const { owner, member, teamId } = await teamOfTwo()
    const path = `/v1/sources?team_id=${teamId}`
    const { live: stays } = await openLongPoll(owner.browser, path)
    const { live: leaves } = await openLongPoll(member.browser, path)
    await removeMembership(database.db, teamId, member.user.id)
    const { id: added } = await addSource(teamId)
    const removed = await leaves
    expect(removed.status).toBe(404)
    expect(await removed.text()).not.toContain(added)
    // The same change reaches whoever is still a member.
    expect(await (await stays).text()).toContain(added)
  })

  it("gets 404 on a team source's event log, never the event written after", async () => {
    const { member, teamId, sourceId } = await teamOfTwo()
    const { live: leaves } = await openLongPoll(
      member.browser,
      `/v1/source-event-logs?source_id=${sourceId}`,
    )
    await removeMembership(database.db, teamId, member.user.id)
    await logEvent(sourceId, 'written-after-removal')
    const removed = await leaves
    expect(removed.status).toBe(404)
    expect(await removed.text()).not.toContain('written-after-removal')
  })

  // The re-check is of the team, not the source: a source deleted while its log waits still
  // answers the deletes that tell the dashboard so (app/db/worker/event-log-fetch.ts).
  it("still answers a deleted source's log deletes to a member who stays", async () => {
    const { owner, sourceId } = await teamOfTwo()
    await logEvent(sourceId, 'created')
    const { live } = await openLongPoll(
      owner.browser,
      `/v1/source-event-logs?source_id=${sourceId}`,
    )
    await database.db.query('delete from sources where id = $1', [sourceId])
    const answer = await live
    expect(answer.status).toBe(200)
    const messages = (await answer.json()) as { headers: unknown }[]
    expect(messages[0]).toMatchObject({ headers: { operation: 'delete' } })
  })
})
