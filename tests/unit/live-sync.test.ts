// The live syncs' shared gate (src/app/lib/live-sync.ts over connectivity.ts): one request that
// finds no server holds every later one until the health probe gets an answer.
import {
  afterEach,
  beforeEach,
  describe,
  expect,
  it,
  vi,
  type Mock,
} from 'vitest'
import type * as LiveSync from '../../src/app/lib/live-sync.ts'

const refused = () => Promise.reject(new TypeError('Failed to fetch'))
const answer = (status = 200) => Promise.resolve(new Response('[]', { status }))

let fetchMock: Mock<typeof fetch>
let info: ReturnType<typeof vi.spyOn>
let live: typeof LiveSync

beforeEach(async () => {
  vi.useFakeTimers()
  vi.resetModules()
  fetchMock = vi.fn<typeof fetch>()
  vi.stubGlobal('fetch', fetchMock)
  info = vi.spyOn(console, 'info').mockImplementation(() => {})
  live = await import('../../src/app/lib/live-sync.ts')
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  info.mockRestore()
})

const paths = () => fetchMock.mock.calls.map(([input]) => String(input))

describe('liveSyncFetch', () => {
  it('backs off from 100 ms, times 1.3, to at most 10 s', () => {
    expect(live.liveShape('http://x/v1/teams')).toMatchObject({
      url: 'http://x/v1/teams',
      backoffOptions: { initialDelay: 100, maxDelay: 10_000, multiplier: 1.3 },
      fetchClient: live.liveSyncFetch,
    })
  })

  it('after one refused request, only the probe asks until the server answers', async () => {
    fetchMock.mockImplementation(refused)
    await expect(live.liveSyncFetch('/v1/teams')).rejects.toThrow(TypeError)
    const held = [
      live.liveSyncFetch('/v1/teams'),
      live.liveSyncFetch('/v1/user/me'),
    ]
    await vi.advanceTimersByTimeAsync(4_000)
    expect(paths()).toEqual([
      '/v1/teams',
      '/api/public/health',
      '/api/public/health',
    ])
    fetchMock.mockImplementation(() => answer())
    await vi.advanceTimersByTimeAsync(2_000)
    await Promise.all(held)
    expect(paths().slice(3)).toEqual([
      '/api/public/health',
      '/v1/teams',
      '/v1/user/me',
    ])
    expect(info).toHaveBeenCalledTimes(1)
  })

  it('a request aborted while held rejects without asking', async () => {
    fetchMock.mockImplementation(refused)
    await expect(live.liveSyncFetch('/v1/teams')).rejects.toThrow(TypeError)
    const aborter = new AbortController()
    const held = live.liveSyncFetch('/v1/teams', { signal: aborter.signal })
    aborter.abort()
    await expect(held).rejects.toThrow()
    expect(paths()).toEqual(['/v1/teams'])
  })

  it('an HTTP error is an answer: the server is reachable', async () => {
    fetchMock.mockImplementation(() => answer(500))
    expect((await live.liveSyncFetch('/v1/teams')).status).toBe(500)
    expect((await live.liveSyncFetch('/v1/teams')).status).toBe(500)
    expect(paths()).toEqual(['/v1/teams', '/v1/teams'])
    expect(info).not.toHaveBeenCalled()
  })

  it('after a 503, only the readiness probe asks until it answers 200; the server stays online', async () => {
    const connectivity = await import('../../src/app/lib/connectivity.ts')
    fetchMock.mockImplementation(() => answer(503))
    expect((await live.liveSyncFetch('/v1/teams')).status).toBe(503)
    const held = [
      live.liveSyncFetch('/v1/teams'),
      live.liveSyncFetch('/v1/user/me'),
    ]
    await vi.advanceTimersByTimeAsync(4_000)
    expect(paths()).toEqual([
      '/v1/teams',
      '/api/public/ready',
      '/api/public/ready',
    ])
    // Not the offline indicator's business: the server answers.
    expect(connectivity.isOnline()).toBe(true)
    fetchMock.mockImplementation(() => answer())
    await vi.advanceTimersByTimeAsync(2_000)
    await Promise.all(held)
    expect(paths().slice(3)).toEqual([
      '/api/public/ready',
      '/v1/teams',
      '/v1/user/me',
    ])
    // Ready again: the backstop probe is the health route's, and rare.
    fetchMock.mockClear()
    vi.stubGlobal('addEventListener', vi.fn())
    connectivity.onConnectivity(() => {})
    await vi.advanceTimersByTimeAsync(15_000)
    expect(paths()).toEqual(['/api/public/health', '/api/public/health'])
    expect(info).toHaveBeenCalledTimes(1)
  })
})
