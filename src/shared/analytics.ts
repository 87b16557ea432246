// What the server tells the app about analytics: the public project key (null: analytics is
// off and the app never loads posthog-js) and PostHog's own app, for links it builds.
import { z } from 'zod'

export const analyticsConfigSchema = z.object({
  key: z.string().nullable(),
  uiHost: z.string().nullable(),
})
export type AnalyticsConfig = z.infer<typeof analyticsConfigSchema>

/** Where the app sends analytics: the server's proxy to PostHog, on our own origin. */
export const INGEST_PATH = '/ingest'
