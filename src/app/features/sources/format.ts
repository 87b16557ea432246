// How a source's dates, sizes, WAL forecast and event details read on screen. Pure, so it is
// unit-tested.
import { invalidatedIn } from '../../../shared/wal-forecast-text.ts'

const dateTime = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
})

/** A stored timestamp for people; the raw text when it is not a date at all. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date)
}

// Measurements come every 15 s and events can come seconds apart: their times need seconds.
const timeWithSeconds = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'medium',
})

/** When something happened, to the second; the raw text when it is not a date. */
export function formatDateTimeToSecond(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : timeWithSeconds.format(date)
}

const fullDateTime = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'full',
  timeStyle: 'long',
})

/**
 * Everything about a time, for a hover: the reader's own words with the time zone, then the
 * exact instant in UTC, as server logs and Postgres tell it. The raw text when it is no date.
 */
export function formatFullTimestamp(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return `${fullDateTime.format(date)} (${date.toISOString()})`
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB']

/** Bytes in binary units, as Postgres reports WAL sizes (1 MiB = 1024 KiB). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return String(bytes)
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024
    unit++
  }
  const digits = unit === 0 || value >= 100 ? 0 : value >= 10 ? 1 : 2
  return `${value.toFixed(digits)} ${UNITS[unit]}`
}

/**
 * wal_status values (pg_replication_slots) that mean the slot holds WAL past
 * max_wal_size, may lose it, or has lost it: the database's disk is at risk.
 */
const WAL_STATUS_WARNINGS = new Set(['extended', 'unreserved', 'lost'])

export function walStatusWarns(status: string | null): boolean {
  return status !== null && WAL_STATUS_WARNINGS.has(status)
}

/** The WAL forecast's sentence; null (not falling behind, or no limit) says nothing. */
export function walForecastText(seconds: number | null): string | null {
  return seconds === null
    ? null
    : `Slot invalidated ${invalidatedIn(seconds)} at the current rate`
}

function valueText(value: unknown): string {
  if (value === null || value === undefined) return '-'
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean')
    return String(value)
  return JSON.stringify(value)
}

/** An event's details as `key: value` lines; a details string as it is. */
export function eventDetailsLines(details: unknown): string[] {
  if (details === null || details === undefined) return []
  if (typeof details !== 'object' || Array.isArray(details))
    return [valueText(details)]
  return Object.entries(details).map(
    ([key, value]) => `${key}: ${valueText(value)}`,
  )
}
