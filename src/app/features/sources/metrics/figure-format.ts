// How a source's figures read: chart axes short enough for a phone, the text a screen reader
// gets instead of a chart, the invalidation causes in words, and the busiest shapes' points
// pivoted into one series a shape. Pure, so it is unit-tested.
import type { FigureWindow, ShapePoint } from '../../../db/tab/figure-types.ts'
import {
  INVALIDATION_CAUSES,
  type InvalidationCause,
} from '../../../../shared/sources.ts'
import { formatBytes } from '../format.ts'

const compact = new Intl.NumberFormat('en', {
  notation: 'compact',
  maximumFractionDigits: 1,
})

/** A rate or a count for an axis or a cell: 0.25, 12, 1.2K, 3.4M. */
export function formatRate(value: number): string {
  if (!Number.isFinite(value)) return String(value)
  if (value !== 0 && Math.abs(value) < 1) return value.toFixed(2)
  return compact.format(value)
}

/** Bytes for an axis or a cell, one decimal at most so ticks stay short: 1.5 KiB, 12 MiB. */
export function formatBytesShort(bytes: number): string {
  const [number = '', unit] = formatBytes(bytes).split(' ')
  const value = Number(number)
  if (unit === undefined || Number.isNaN(value)) return number
  return `${value >= 10 ? Math.round(value) : Number(value.toFixed(1))} ${unit}`
}

// 24-hour whatever the locale: "01:45 PM" is wider than a phone's axis has room for.
const hourMinute = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
})
const dayMonth = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
})

/** A point's time on an axis: HH:MM within an hour or a day, the date over a week. */
export function formatTick(at: Date, window: FigureWindow): string {
  return window === 'week' ? dayMonth.format(at) : hourMinute.format(at)
}

export const WINDOW_WORDS: Record<FigureWindow, string> = {
  hour: 'the last hour',
  day: 'the last 24 hours',
  week: 'the last 7 days',
}

/**
 * One series in words for a screen reader: its latest value and its peak over the window,
 * or that it has no value there.
 */
export function seriesSummary(
  name: string,
  values: (number | null)[],
  format: (value: number) => string,
): string {
  const known = values.filter((value): value is number => value !== null)
  const latest = known.at(-1)
  if (latest === undefined) return `${name}: no figures.`
  return `${name}: latest ${format(latest)}, peak ${format(Math.max(...known))}.`
}

const CAUSES: Record<InvalidationCause, string> = {
  clear_cache: 'Cache cleared',
  schema_change: 'Schema changed',
  slot_lost: 'Slot lost',
  deleted: 'Shape deleted',
  evicted: 'Evicted',
  dependency: 'Subquery dependency changed',
}

/** Why a shape was rotated, in words; an unknown cause as the engine named it. */
export function causeLabel(cause: string): string {
  return isCause(cause) ? CAUSES[cause] : cause
}

function isCause(cause: string): cause is InvalidationCause {
  return (INVALIDATION_CAUSES as readonly string[]).includes(cause)
}

const plural = (n: number, one: string, many: string) =>
  `${n} ${n === 1 ? one : many}`

/** What rotating every live shape of a source does to its readers, for a confirm dialog. */
export function rotationImpact(shapes: number, clients: number): string {
  if (shapes === 0) return 'No shape is live now, so no client refetches.'
  return `This rotates ${plural(shapes, 'shape', 'shapes')}; ${plural(clients, 'client', 'clients')} will refetch.`
}

export type ShapeSeries = {
  handle: string
  label: string
  values: (number | null)[]
}

/**
 * The busiest shapes' points as the charts take them: the points' times, oldest first, and a
 * series a shape with its value at each time (null where it was not among the busiest). At most
 * `limit` series, the largest total first, so a phone's legend stays short.
 */
export function shapeSeries(
  points: ShapePoint[],
  value: (point: ShapePoint) => number,
  limit: number,
): { times: string[]; series: ShapeSeries[] } {
  const times = [...new Set(points.map((point) => point.at))].sort()
  const index = new Map(times.map((at, i) => [at, i]))
  const byHandle = new Map<string, ShapeSeries & { total: number }>()
  for (const point of points) {
    let entry = byHandle.get(point.handle)
    if (!entry) {
      entry = {
        handle: point.handle,
        label: point.label,
        values: times.map(() => null),
        total: 0,
      }
      byHandle.set(point.handle, entry)
    }
    entry.values[index.get(point.at) ?? 0] = value(point)
    entry.total += value(point)
  }
  const series = [...byHandle.values()]
    .sort((a, b) => b.total - a.total || a.handle.localeCompare(b.handle))
    .slice(0, limit)
    .map(({ handle, label, values }) => ({ handle, label, values }))
  return { times, series }
}

/**
 * A shapes_invalidated event's details ({ cause, shapes }) as a sentence; null when they are
 * not that shape, so the event log shows them as they are. (The clients that came back are
 * counted after the event, on the invalidation log's rows: a `clients` here is shown too.)
 */
export function invalidatedEventLine(details: unknown): string | null {
  if (typeof details !== 'object' || details === null) return null
  const { cause, shapes, clients } = details as Record<string, unknown>
  if (typeof cause !== 'string' || typeof shapes !== 'number') return null
  const rotated = `${causeLabel(cause)}: ${plural(shapes, 'shape', 'shapes')} rotated`
  return typeof clients === 'number'
    ? `${rotated}, ${plural(clients, 'client', 'clients')} refetched.`
    : `${rotated}.`
}
