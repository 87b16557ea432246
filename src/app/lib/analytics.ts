// The one door to posthog-js. The server says whether analytics is on; only then is posthog-js
// fetched (its own chunk, after first paint), and calls made before that wait in a queue.
// With no key the queue is dropped and posthog-js is never even downloaded.
import type { PostHog, PostHogConfig } from 'posthog-js'
import {
  analyticsConfigSchema,
  INGEST_PATH,
  type AnalyticsConfig,
} from '../../shared/analytics.ts'
import type { AuthUser } from '../../shared/entities.ts'
import { api } from './api.ts'
import { ANALYTICS_CONFIG_PATH } from '../../shared/api-routes.ts'

type Call = (posthog: PostHog) => void

// Enough for a burst of navigations while the script loads; past that, drop rather than grow.
const MAX_QUEUED = 100

/**
 * Page views and identify only: everything else posthog-js can do is either not asked for or
 * loads remote scripts, which our CSP (rightly) refuses.
 */
function posthogOptions(
  origin: string,
  uiHost: string | null,
): Partial<PostHogConfig> {
  return {
    api_host: `${origin}${INGEST_PATH}`,
    ui_host: uiHost,
    // We send page views ourselves, one per router navigation.
    capture_pageview: false,
    capture_pageleave: false,
    autocapture: false,
    rageclick: false,
    capture_dead_clicks: false,
    capture_heatmaps: false,
    capture_exceptions: false,
    capture_performance: false,
    disable_session_recording: true,
    disable_surveys: true,
    disable_product_tours: true,
    disable_conversations: true,
    disable_web_experiments: true,
    disable_external_dependency_loading: true,
    // No feature flags, so no /flags call and no remote config either.
    advanced_disable_flags: true,
    // The id lives in localStorage, not in a cookie sent with every request to us.
    persistence: 'localStorage',
  }
}

export type AnalyticsDeps = {
  loadConfig: () => Promise<AnalyticsConfig>
  loadPostHog: () => Promise<PostHog>
  origin: () => string
}

export function createAnalytics(deps: AnalyticsDeps) {
  let posthog: PostHog | undefined
  let off = false
  let started = false
  let queue: Call[] = []

  const run = (call: Call) => {
    if (posthog) call(posthog)
    else if (!off && queue.length < MAX_QUEUED) queue.push(call)
  }
  const turnOff = () => {
    off = true
    queue = []
  }

  return {
    /** Loads posthog-js if the server has a key; safe to call more than once. */
    async start(): Promise<void> {
      if (started) return
      started = true
      try {
        const { key, uiHost } = await deps.loadConfig()
        if (!key) return turnOff()
        const client = await deps.loadPostHog()
        client.init(key, posthogOptions(deps.origin(), uiHost))
        posthog = client
        for (const call of queue) call(client)
        queue = []
      } catch (error) {
        // Analytics must never break the app: without it the page works the same.
        console.warn('Analytics is off for this page:', error)
        turnOff()
      }
    },

    pageView(url: string): void {
      // Stamped now: a queued page view still happened when the user navigated.
      const timestamp = new Date()
      const { pathname } = new URL(url)
      run((ph) =>
        ph.capture(
          '$pageview',
          { $current_url: url, $pathname: pathname },
          { timestamp },
        ),
      )
    },

    identify(user: AuthUser): void {
      run((ph) => ph.identify(user.id, { name: user.name, email: user.email }))
    },

    /** Properties of the identified person (the onboarding answers), not of an event. */
    setPersonProperties(properties: Record<string, string>): void {
      run((ph) => ph.setPersonProperties(properties))
    },

    /** After sign-out: the next events belong to a new anonymous visitor. */
    reset(): void {
      run((ph) => ph.reset())
    },
  }
}

const analytics = createAnalytics({
  loadConfig: () => api(ANALYTICS_CONFIG_PATH, analyticsConfigSchema),
  // The build that never loads scripts at run time; a chunk of its own, fetched on demand.
  loadPostHog: async () => (await import('posthog-js/no-external')).default,
  origin: () => window.location.origin,
})

/** Starts analytics once the browser is idle after the first paint. */
export function startAnalytics(): void {
  const start = () => void analytics.start()
  requestAnimationFrame(() => {
    if ('requestIdleCallback' in window)
      requestIdleCallback(start, { timeout: 2000 })
    else setTimeout(start, 0)
  })
}

export const trackPageView = (url: string) => analytics.pageView(url)
export const identifyUser = (user: AuthUser) => analytics.identify(user)
export const resetAnalytics = () => analytics.reset()
export const setPersonProperties = (properties: Record<string, string>) =>
  analytics.setPersonProperties(properties)
