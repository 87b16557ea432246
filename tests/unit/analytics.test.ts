// The analytics wrapper: posthog-js loads only with a key, and nothing said before it loaded
// is lost (or, with no key, kept).
import { describe, expect, it, vi } from 'vitest'
import {
  createAnalytics,
  type AnalyticsDeps,
} from '../../src/app/lib/analytics.ts'

type PostHog = Awaited<ReturnType<AnalyticsDeps['loadPostHog']>>

const user = { id: 'u-1', name: 'Ada', email: 'ada@example.com' }

function fakePostHog() {
  const calls: unknown[][] = []
  const record =
    (name: string) =>
    (...args: unknown[]) =>
      void calls.push([name, ...args])
  const client = {
    init: record('init'),
    capture: record('capture'),
    identify: record('identify'),
    reset: record('reset'),
  }
  return { calls, client: client as unknown as PostHog }
}

function setup(key: string | null) {
  const posthog = fakePostHog()
  const deps: AnalyticsDeps = {
    loadConfig: vi.fn(async () => ({
      key,
      uiHost: key && 'https://us.posthog.com',
    })),
    loadPostHog: vi.fn(async () => posthog.client),
    origin: () => 'https://sluice.example.com',
  }
  return { analytics: createAnalytics(deps), deps, calls: posthog.calls }
}

describe('analytics', () => {
  it('never loads posthog-js without a key, and drops what was queued', async () => {
    const { analytics, deps, calls } = setup(null)
    analytics.pageView('https://sluice.example.com/')
    await analytics.start()
    analytics.identify(user)
    expect(deps.loadPostHog).not.toHaveBeenCalled()
    expect(calls).toEqual([])
  })

  it('replays calls made before loading, in order, after init', async () => {
    const { analytics, calls } = setup('phc_key')
    const before = Date.now()
    analytics.identify(user)
    analytics.pageView('https://sluice.example.com/sources?x=1')
    await analytics.start()
    analytics.pageView('https://sluice.example.com/preferences')

    expect(calls.map(([name]) => name)).toEqual([
      'init',
      'identify',
      'capture',
      'capture',
    ])
    const [, key, options] = calls[0] ?? []
    expect(key).toBe('phc_key')
    expect(options).toMatchObject({
      api_host: 'https://sluice.example.com/ingest',
      ui_host: 'https://us.posthog.com',
      capture_pageview: false,
      autocapture: false,
      disable_session_recording: true,
      disable_surveys: true,
      disable_external_dependency_loading: true,
      advanced_disable_flags: true,
    })
    expect(calls[1]).toEqual([
      'identify',
      'u-1',
      { name: 'Ada', email: 'ada@example.com' },
    ])
    const [, event, properties, captureOptions] = calls[2] ?? []
    expect(event).toBe('$pageview')
    expect(properties).toEqual({
      $current_url: 'https://sluice.example.com/sources?x=1',
      $pathname: '/sources',
    })
    // Stamped when the user navigated, not when the queue was replayed.
    const { timestamp } = captureOptions as { timestamp: Date }
    expect(timestamp.getTime()).toBeGreaterThanOrEqual(before)
    expect(calls[3]?.[2]).toMatchObject({
      $current_url: 'https://sluice.example.com/preferences',
    })
  })

  it('stays off, quietly, when the key cannot be read', async () => {
    const { analytics, deps, calls } = setup('phc_key')
    vi.mocked(deps.loadConfig).mockRejectedValueOnce(new Error('offline'))
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    analytics.pageView('https://sluice.example.com/')
    await analytics.start()
    analytics.pageView('https://sluice.example.com/sources')
    expect(deps.loadPostHog).not.toHaveBeenCalled()
    expect(calls).toEqual([])
    expect(warn).toHaveBeenCalledOnce()
    warn.mockRestore()
  })

  it('starts once however often it is asked', async () => {
    const { analytics, deps } = setup('phc_key')
    await Promise.all([analytics.start(), analytics.start()])
    expect(deps.loadConfig).toHaveBeenCalledOnce()
    expect(deps.loadPostHog).toHaveBeenCalledOnce()
  })
})
