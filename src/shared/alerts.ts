// Alerts as the API, the team page and webhook receivers see them: what a
// destination's create takes, the kinds of incident, the JSON each webhook receives and the
// names of the headers that sign it. Verifying a signature is described in docs/alerts.md.
import { z } from 'zod'

export const ALERT_URL_MAX_LENGTH = 2000
/** The longest address SMTP carries (RFC 5321's path limit less its angle brackets). */
export const ALERT_EMAIL_MAX_LENGTH = 254
/** An email destination's url: `mailto:` and the address. */
const MAILTO = 'mailto:'
/** Destinations a team may hold at once (not counting deleted ones). */
export const ALERT_DESTINATIONS_MAX_PER_TEAM = 10

export type AlertKind =
  | 'source_error'
  | 'delete_failed'
  | 'replication_health_warning'
  | 'source_reconnecting'
  | 'wal_forecast_warning'

/** A test alert's event: no source, no incident. */
export const TEST_ALERT_EVENT = 'test_alert'

export type AlertState = 'firing' | 'resolved'

/** The body of every webhook call. `id` is the same on each retry of one alert. */
export type AlertPayload = {
  id: string
  team_id: string
  source_id: string | null
  event: AlertKind | typeof TEST_ALERT_EVENT
  state: AlertState
  message: string
  occurred_at: string
}

export const SIGNATURE_HEADER = 'sluice-signature'
export const TIMESTAMP_HEADER = 'sluice-timestamp'

/** The address of an email destination (its url is `mailto:<address>`); null for a webhook. */
export function emailAddressOf(url: string): string | null {
  return url.startsWith(MAILTO) ? url.slice(MAILTO.length) : null
}

export const emailDestinationUrl = (address: string) => `${MAILTO}${address}`

/** POST /api/v1/teams/{teamId}/alert-destinations: `{url}` for a webhook or `{email}`. */
export const createAlertDestinationSchema = z
  .object({
    url: z
      .string()
      .trim()
      .min(1, 'A webhook URL is required')
      .max(
        ALERT_URL_MAX_LENGTH,
        `The URL must be at most ${ALERT_URL_MAX_LENGTH} characters`,
      )
      .optional(),
    email: z
      .string()
      .trim()
      .min(1, 'An email address is required')
      .max(
        ALERT_EMAIL_MAX_LENGTH,
        `The email address must be at most ${ALERT_EMAIL_MAX_LENGTH} characters`,
      )
      .pipe(z.email('The email address is not valid'))
      .optional(),
  })
  .refine((body) => (body.url === undefined) !== (body.email === undefined), {
    message: 'Give either a webhook url or an email address',
  })

/**
 * The WAL forecast's threshold, in seconds: from a minute (the forecast moves with each 15 s
 * measurement; less would alert too late to act) to a week. The table checks the same bounds
 * (migrations/server/0021_wal_forecast.sql).
 */
export const WAL_FORECAST_THRESHOLD_SECONDS = { min: 60, max: 7 * 86_400 }

const walForecastThresholdSchema = z
  .number()
  .int()
  .min(WAL_FORECAST_THRESHOLD_SECONDS.min)
  .max(WAL_FORECAST_THRESHOLD_SECONDS.max)

/** A team's thresholds, as GET and PUT answer them. */
export const alertSettingsSchema = z.object({
  wal_retained_threshold_bytes: z
    .number()
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER),
  reconnecting_minutes: z.number().int().min(1).max(1440),
  wal_forecast_threshold_seconds: walForecastThresholdSchema,
})
export type AlertSettings = z.infer<typeof alertSettingsSchema>

/**
 * PUT /api/v1/teams/{teamId}/alert-settings. The forecast's threshold may be left out: a client
 * written before it existed keeps working, and the stored one stays.
 */
export const saveAlertSettingsSchema = alertSettingsSchema.extend({
  wal_forecast_threshold_seconds: walForecastThresholdSchema.optional(),
})
export type SaveAlertSettings = z.infer<typeof saveAlertSettingsSchema>

export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  wal_retained_threshold_bytes: 1024 ** 3,
  reconnecting_minutes: 5,
  wal_forecast_threshold_seconds: 3600,
}

/** GET .../alert-settings: the thresholds, and whether this server can send email (SMTP_URL). */
export const alertSettingsResponseSchema = alertSettingsSchema.extend({
  email_available: z.boolean(),
})

/** A destination as listed: never its secret. */
export type AlertDestination = {
  id: string
  team_id: string
  url: string
  created_by: string | null
  created_at: string
  deleted_at: string | null
}

/**
 * The one rule for a webhook's URL, before any address check: https, or http to a loopback
 * name or address when private targets are allowed (a receiver on the same machine in local
 * mode). No credentials in the URL: the secret signs, the URL only addresses.
 */
export function webhookUrlProblem(
  raw: string,
  allowPrivate: boolean,
): string | null {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'The webhook URL is not a valid URL.'
  }
  if (url.username || url.password)
    return 'The webhook URL must not contain a user name or password.'
  if (url.protocol === 'https:') return null
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
  if (url.protocol === 'http:' && allowPrivate && loopback) return null
  return 'The webhook URL must start with https://.'
}

/** POST .../alert-destinations: the destination, a webhook's secret (this once) and the txid. */
export const createAlertDestinationResponseSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  created_at: z.string(),
  secret: z.string().nullable(),
  txid: z.number().int(),
})

export const deleteAlertDestinationResponseSchema = z.object({
  txid: z.number().int(),
})

export const testAlertResponseSchema = z.object({ queued: z.literal(true) })
