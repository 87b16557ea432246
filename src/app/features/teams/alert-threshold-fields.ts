// The thresholds form's text as alert settings, pure: the retained WAL as an amount and a unit,
// the reconnecting minutes, and the WAL forecast's threshold in minutes (the API takes seconds).
// Checked here as the API checks them, each field saying what is wrong with it.
import {
  alertSettingsSchema,
  WAL_FORECAST_THRESHOLD_SECONDS,
  type AlertSettings,
} from '../../../shared/alerts.ts'

export const UNITS = [
  { label: 'bytes', bytes: 1 },
  { label: 'KiB', bytes: 1024 },
  { label: 'MiB', bytes: 1024 ** 2 },
  { label: 'GiB', bytes: 1024 ** 3 },
  { label: 'TiB', bytes: 1024 ** 4 },
] as const
export type Unit = (typeof UNITS)[number]['label']

/** The largest unit that shows the threshold as a whole number. */
export function splitBytes(bytes: number): { amount: string; unit: Unit } {
  const unit =
    [...UNITS].reverse().find((u) => bytes % u.bytes === 0) ?? UNITS[0]
  return { amount: String(bytes / unit.bytes), unit: unit.label }
}

const MAX_MINUTES = 1440
const FORECAST_MINUTES = {
  min: WAL_FORECAST_THRESHOLD_SECONDS.min / 60,
  max: WAL_FORECAST_THRESHOLD_SECONDS.max / 60,
}

/**
 * The forecast's threshold as the form shows it: whole minutes, or minutes to two decimals
 * when the API was given seconds that are not (two decimals turn back into the same seconds).
 */
export function forecastMinutesText(seconds: number): string {
  return seconds % 60 === 0
    ? String(seconds / 60)
    : (seconds / 60).toFixed(2).replace(/0$/, '')
}

export type ThresholdTexts = {
  amount: string
  unit: Unit
  minutes: string
  forecastMinutes: string
}

/** The form's text as settings (null while any field is wrong), or what is wrong with each field. */
export function parseThresholds(texts: ThresholdTexts) {
  const amount = texts.amount.trim()
  const perUnit = UNITS.find((u) => u.label === texts.unit)?.bytes ?? 1
  const wholeAmount = /^\d{1,16}$/.test(amount)
  const bytes = Number(amount) * perUnit
  const amountError = !wholeAmount
    ? 'Enter a whole number'
    : bytes < 1
      ? 'Enter at least 1'
      : bytes > Number.MAX_SAFE_INTEGER
        ? 'Too large: choose a smaller amount or unit'
        : null
  const minutes = texts.minutes.trim()
  const wholeMinutes = /^\d{1,4}$/.test(minutes)
  const minutesError =
    wholeMinutes && Number(minutes) >= 1 && Number(minutes) <= MAX_MINUTES
      ? null
      : `Enter a whole number of minutes from 1 to ${MAX_MINUTES}`
  const forecast = texts.forecastMinutes.trim()
  const forecastMinutes = Number(forecast)
  const forecastError =
    /^\d{1,5}(\.\d{1,2})?$/.test(forecast) &&
    forecastMinutes >= FORECAST_MINUTES.min &&
    forecastMinutes <= FORECAST_MINUTES.max
      ? null
      : `Enter minutes from ${FORECAST_MINUTES.min} to ${FORECAST_MINUTES.max} (7 days)`
  const settings = alertSettingsSchema.safeParse({
    wal_retained_threshold_bytes: bytes,
    reconnecting_minutes: Number(minutes),
    wal_forecast_threshold_seconds: Math.round(forecastMinutes * 60),
  })
  return {
    amountError,
    minutesError,
    forecastError,
    settings:
      !amountError && !minutesError && !forecastError && settings.success
        ? settings.data
        : null,
  }
}

export const sameSettings = (a: AlertSettings, b: AlertSettings) =>
  a.wal_retained_threshold_bytes === b.wal_retained_threshold_bytes &&
  a.reconnecting_minutes === b.reconnecting_minutes &&
  a.wal_forecast_threshold_seconds === b.wal_forecast_threshold_seconds
