// /api/public/analytics: whether the app should load analytics at all, and with which key.
import { Hono } from 'hono'
import type { AnalyticsConfig } from '../../shared/analytics.ts'
import type { AppEnv } from '../platform/http/context.ts'
import { uiHost } from './posthog-hosts.ts'

export const analyticsRoutes = new Hono<AppEnv>().get('/', (c) => {
  const { POSTHOG_KEY, POSTHOG_HOST } = c.var.deps.env
  const config: AnalyticsConfig = POSTHOG_KEY
    ? { key: POSTHOG_KEY, uiHost: uiHost(POSTHOG_HOST) }
    : { key: null, uiHost: null }
  return c.json(config)
})
