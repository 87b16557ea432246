// Where the proxy sends each PostHog path, for PostHog Cloud and for a self-hosted PostHog.
import { describe, expect, it } from 'vitest'
import { upstreamUrl } from '../../src/server/analytics/ingest.ts'
import {
  assetsHost,
  isAssetPath,
  uiHost,
} from '../../src/server/analytics/posthog-hosts.ts'

describe('PostHog hosts', () => {
  it.each([
    [
      'https://us.i.posthog.com',
      'https://us-assets.i.posthog.com/',
      'https://us.posthog.com',
    ],
    [
      'https://eu.i.posthog.com',
      'https://eu-assets.i.posthog.com/',
      'https://eu.posthog.com',
    ],
    [
      'https://posthog.example.com',
      'https://posthog.example.com/',
      'https://posthog.example.com',
    ],
  ])('for %s: assets at %s, app at %s', (host, assets, ui) => {
    expect(assetsHost(host)).toBe(assets)
    expect(uiHost(host)).toBe(ui)
  })

  it('sends scripts and remote config to the assets host, the rest to ingestion', () => {
    expect(isAssetPath('/static/array.js')).toBe(true)
    expect(isAssetPath('/array/phc_key/config')).toBe(true)
    expect(isAssetPath('/e/')).toBe(false)
    expect(isAssetPath('/flags/')).toBe(false)
  })
})

describe('upstreamUrl', () => {
  it('appends the path and query to the host, under any base path', () => {
    expect(upstreamUrl('https://us.i.posthog.com', '/e/', '?ip=0').href).toBe(
      'https://us.i.posthog.com/e/?ip=0',
    )
    expect(
      upstreamUrl('https://ph.example.com/posthog/', '/flags/', '').href,
    ).toBe('https://ph.example.com/posthog/flags/')
  })

  it('never lets the path name another host', () => {
    const url = upstreamUrl('https://us.i.posthog.com', '//evil.example/x', '')
    expect(url.host).toBe('us.i.posthog.com')
    expect(url.pathname).toBe('//evil.example/x')
  })
})
