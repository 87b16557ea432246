// A first visit's snapshots, prefetched by the tab, answer the sync's streams' first requests
// (worker/shape-prefetch.ts): once each, for the user they were asked for, waiting for one on
// its way, and never a request the prefetch did not make.
import { describe, expect, it, vi } from 'vitest'
import {
  expectPrefetch,
  keepPrefetchedFor,
  prefetched,
  prefetchedOr,
  prefetchedTeamIds,
} from '../../src/app/db/worker/shape-prefetch.ts'
import type { PrefetchedAnswer } from '../../src/app/db/shared/prefetch.ts'

const ORIGIN = 'http://localhost:3000'
const TEAM = '0b5d6c1e-7a3f-4e1b-9c2d-1f2e3d4c5b6a'

const answer = (messages: unknown[], handle = 'h-1'): PrefetchedAnswer => ({
  status: 200,
  headers: [
    ['content-type', 'application/json'],
    ['electric-handle', handle],
    ['electric-offset', '0_0'],
  ],
  body: new TextEncoder().encode(JSON.stringify(messages)).buffer,
})
const teamsAnswer = answer([
  { headers: { operation: 'insert' }, value: { user_id: 'u1', team_id: TEAM } },
  { headers: { control: 'up-to-date' } },
])

function network() {
  return vi.fn((_input: RequestInfo | URL, _init?: RequestInit) =>
    Promise.resolve(
      new Response('[]', { headers: { 'electric-handle': 'n' } }),
    ),
  )
}
const snapshotUrl = (path: string) =>
  `${ORIGIN}${path}${path.includes('?') ? '&' : '?'}offset=-1`

describe('prefetchedOr', () => {
  it("answers a stream's first request from the prefetch, once", async () => {
    const fetchMock = network()
    const client = prefetchedOr(fetchMock)
    expectPrefetch('u1')
    keepPrefetchedFor('u1')
    prefetched(
      `${ORIGIN}/v1/user/me?offset=-1`,
      answer([{ value: { id: 'u1' } }], 'me'),
    )

    const first = await client(snapshotUrl('/v1/user/me'))
    expect(first.headers.get('electric-handle')).toBe('me')
    expect(await first.json()).toEqual([{ value: { id: 'u1' } }])
    expect(fetchMock).not.toHaveBeenCalled()

    // Starting over (a 409, say) needs a new snapshot: the network's.
    await client(snapshotUrl('/v1/user/me'))
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('never answers a request that resumes a shape', async () => {
    const fetchMock = network()
    const client = prefetchedOr(fetchMock)
    expectPrefetch('u1')
    prefetched(`${ORIGIN}/v1/teams?offset=-1`, teamsAnswer)
    await client(`${ORIGIN}/v1/teams?offset=0_0&handle=h-1`)
    await client(`${ORIGIN}/v1/teams?offset=0_0`)
    expect(fetchMock).toHaveBeenCalledTimes(2)
  })

  it('a stream asking before the answer has arrived waits for it', async () => {
    const fetchMock = network()
    const client = prefetchedOr(fetchMock)
    expectPrefetch('u1')
    const pending = client(snapshotUrl('/v1/teams'))
    prefetched(`${ORIGIN}/v1/teams?offset=-1`, teamsAnswer)
    expect((await pending).headers.get('electric-handle')).toBe('h-1')
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it("expects each team's shapes once the team list is in, and reads its team ids", async () => {
    const fetchMock = network()
    const client = prefetchedOr(fetchMock)
    expectPrefetch('u1')
    prefetched(`${ORIGIN}/v1/teams?offset=-1`, teamsAnswer)
    expect(await prefetchedTeamIds()).toEqual([TEAM])
    // Asked for before the tab's answer: the stream waits for it rather than ask again.
    const sources = client(snapshotUrl(`/v1/sources?team_id=${TEAM}`))
    prefetched(
      `${ORIGIN}/v1/sources?team_id=${TEAM}&offset=-1`,
      answer([], 'sources'),
    )
    expect((await sources).headers.get('electric-handle')).toBe('sources')
    // Another team's shapes were not prefetched.
    await client(snapshotUrl('/v1/sources?team_id=someone-elses'))
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('a prefetch that got no snapshot leaves the request to the network', async () => {
    const fetchMock = network()
    const client = prefetchedOr(fetchMock)
    expectPrefetch('u1')
    prefetched(`${ORIGIN}/v1/teams?offset=-1`, null)
    await client(snapshotUrl('/v1/teams'))
    expect(fetchMock).toHaveBeenCalledTimes(1)
    expect(await prefetchedTeamIds()).toEqual([])
  })

  it('what was prefetched for another user is dropped', async () => {
    const fetchMock = network()
    const client = prefetchedOr(fetchMock)
    expectPrefetch('u1')
    prefetched(`${ORIGIN}/v1/teams?offset=-1`, teamsAnswer)
    keepPrefetchedFor('u2')
    expect(await prefetchedTeamIds()).toEqual([])
    await client(snapshotUrl('/v1/teams'))
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('an answer stuck on its way is given up on, and the stream asks itself', async () => {
    vi.useFakeTimers()
    try {
      const fetchMock = network()
      const client = prefetchedOr(fetchMock)
      expectPrefetch('u1')
      const pending = client(snapshotUrl('/v1/user/me'))
      await vi.advanceTimersByTimeAsync(5_000)
      await pending
      expect(fetchMock).toHaveBeenCalledTimes(1)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('prefetchedTeamIds', () => {
  it('gives up on a team list that never arrives', async () => {
    vi.useFakeTimers()
    try {
      expectPrefetch('u1')
      const ids = prefetchedTeamIds()
      await vi.advanceTimersByTimeAsync(5_000)
      expect(await ids).toEqual([])
    } finally {
      vi.useRealTimers()
    }
  })
})
