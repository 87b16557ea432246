// timezone(zone, timestamp[tz]) and AT TIME ZONE, as timestamp_zone/timestamptz_zone compute
// them: the zone is a fixed abbreviation of Postgres's default set, a POSIX-style fixed offset
// (`UTC+3`, `+05:30`: hours west of UTC, POSIX's sign), or a tz database name, whose offsets
// come from the runtime's ICU data (Postgres's own copy may be another tzdata release). Dynamic
// abbreviations (MSK) and POSIX zones with daylight-saving rules are refused.
import { charge } from '../budget.ts'
import { EvalError } from '../errors.ts'
import {
  checkTimestamp,
  daysFromCivil,
  TS_NEG_INF,
  TS_POS_INF,
} from './datetime.ts'
import { infSign, type Interval } from './interval.ts'
import {
  DYNAMIC_ABBREVIATIONS,
  FIXED_ABBREVIATIONS,
} from './tz-abbreviations.ts'

/**
 * A zone: a fixed offset (seconds east of UTC), or a tz database zone with the offsets read so
 * far by quarter hour (for a quarter hour that starts and ends on one offset).
 */
type Zone =
  | { fixed: number }
  | { format: Intl.DateTimeFormat; quarters: Map<number, number> }

// Postgres reads at most TZ_STRLEN_MAX (255) bytes of the name.
const MAX_NAME = 255
// Budget units: building an ICU formatter costs some 80 µs, reading an offset some 8 µs.
const RESOLVE_COST = 100_000
const OFFSET_COST = 10_000
const CACHE_SIZE = 1_000

const POSIX_OFFSET =
  /^(?:[A-Za-z]{3,}|<[A-Za-z0-9+-]+>)?([+-]?)(\d{1,3})(?::(\d{1,2})(?::(\d{1,2}))?)?$/

// Zone files at the top of the tz database (no `/` in their names), which Postgres finds too.
const TOP_LEVEL = new Set(
  `cet cst6cdt cuba eet egypt eire est est5edt gb gb-eire gmt gmt+0 gmt-0 gmt0 greenwich hst
  hongkong iceland iran israel jamaica japan kwajalein libya met mst mst7mdt navajo nz nz-chat
  poland portugal prc pst8pdt roc rok singapore turkey uct universal utc w-su wet zulu`
    .trim()
    .split(/\s+/),
)

function posixOffset(name: string): number | undefined {
  const m = POSIX_OFFSET.exec(name)
  if (!m) return undefined
  const hours = Number(m[2])
  const minutes = Number(m[3] ?? 0)
  const seconds = Number(m[4] ?? 0)
  // tzparse's limits: up to a week of hours, leap seconds allowed.
  if (hours > 167 || minutes > 59 || seconds > 60) return undefined
  const west = hours * 3600 + minutes * 60 + seconds
  return m[1] === '-' ? west : -west
}

function namedZone(name: string): Zone | undefined {
  const lower = name.toLowerCase()
  if (!lower.includes('/') && !TOP_LEVEL.has(lower)) return undefined
  if (!/^[A-Za-z0-9_+\-/]+$/.test(name)) return undefined
  try {
    const format = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      calendar: 'gregory',
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    return { format, quarters: new Map() }
  } catch {
    return undefined
  }
}

function resolve(name: string): Zone | string {
  if (name.length > MAX_NAME)
    return `time zone "${name.slice(0, 40)}…" is too long`
  const lower = name.toLowerCase()
  const fixed = FIXED_ABBREVIATIONS.get(lower)
  if (fixed !== undefined) return { fixed }
  if (DYNAMIC_ABBREVIATIONS.has(lower))
    return `time zone abbreviation "${name}" is not supported (its offset follows a zone's history)`
  const posix = posixOffset(name)
  if (posix !== undefined) return { fixed: posix }
  const named = namedZone(name)
  if (named) return named
  // A POSIX zone with a daylight-saving part (`UTC+3DST`, `EST5EDT,M3.2.0,M11.1.0`).
  if (/^(?:[A-Za-z]{3,}|<[^>]*>)[+-]?\d/.test(name))
    return `time zone "${name}" is not supported (POSIX daylight-saving rules)`
  return `time zone "${name}" not recognized`
}

const cache = new Map<string, Zone | string>()

/** The zone a name stands for, or the error Postgres (or we) give for it. */
export function zoneNamed(name: string): Zone {
  let zone = cache.get(name)
  if (zone === undefined) {
    charge(RESOLVE_COST)
    zone = resolve(name)
    if (cache.size >= CACHE_SIZE) cache.clear()
    cache.set(name, zone)
  }
  if (typeof zone === 'string') throw new EvalError(zone)
  return zone
}

const JS_DATE_LIMIT = 8_640_000_000_000 // seconds: what a Date can hold
// Offsets repeat every 400 Gregorian years once the zone's last rule applies.
const CYCLE = 146_097 * 86_400

// Remembered quarter hours per zone: rows cluster in time, and an ICU read costs some 8 µs.
const QUARTER = 900
const QUARTERS_KEPT = 4_096

function offsetAt(zone: Zone, utcSeconds: number): number {
  if ('fixed' in zone) return zone.fixed
  const quarter = Math.floor(utcSeconds / QUARTER)
  const known = zone.quarters.get(quarter)
  if (known !== undefined) return known
  const offset = readOffset(zone.format, utcSeconds)
  // No zone changes offset twice within a quarter hour: equal ends mean one offset throughout.
  const start = quarter * QUARTER
  const end = start + QUARTER - 1
  const other = readOffset(zone.format, utcSeconds === start ? end : start)
  if (other === offset) {
    if (zone.quarters.size >= QUARTERS_KEPT) zone.quarters.clear()
    zone.quarters.set(quarter, offset)
  }
  return offset
}

function readOffset(format: Intl.DateTimeFormat, utcSeconds: number): number {
  charge(OFFSET_COST)
  let t = utcSeconds
  if (t > JS_DATE_LIMIT) t -= Math.ceil((t - JS_DATE_LIMIT) / CYCLE) * CYCLE
  const parts: Record<string, string> = {}
  for (const p of format.formatToParts(new Date(t * 1000)))
    parts[p.type] = p.value
  const year = Number(parts.year)
  const y = parts.era === 'BC' ? 1 - year : year
  const local =
    daysFromCivil(y, Number(parts.month), Number(parts.day)) * 86_400 +
    Number(parts.hour) * 3600 +
    Number(parts.minute) * 60 +
    Number(parts.second)
  return local - t
}

const US = 1_000_000n
const floorSeconds = (us: bigint): number =>
  Number(us / US - (us % US < 0n ? 1n : 0n))

/**
 * The UTC offset of a local time (DetermineTimeZoneOffset): across a transition, a time that
 * does not exist or exists twice takes the smaller offset, i.e. the later instant.
 */
function offsetOfLocal(zone: Zone, local: number): number {
  if ('fixed' in zone) return zone.fixed
  const before = offsetAt(zone, local - 86_400)
  const after = offsetAt(zone, local + 86_400)
  if (before === after) return before
  const beforeTime = local - before
  const afterTime = local - after
  const firstAfter = (t: number) => offsetAt(zone, t) !== before
  if (!firstAfter(beforeTime) && !firstAfter(afterTime)) return before
  if (firstAfter(beforeTime) && firstAfter(afterTime)) return after
  return beforeTime > afterTime ? before : after
}

const isInfinite = (ts: bigint) => ts === TS_POS_INF || ts === TS_NEG_INF

/** timezone(zone, timestamp): the local time in `zone`, as an instant (timestamptz). */
export function localToZone(name: string, ts: bigint): bigint {
  if (isInfinite(ts)) return ts
  const offset = offsetOfLocal(zoneNamed(name), floorSeconds(ts))
  return checkTimestamp(ts - BigInt(offset) * US)
}

/** timezone(zone, timestamptz): the instant's local time in `zone` (a timestamp). */
export function instantInZone(name: string, ts: bigint): bigint {
  if (isInfinite(ts)) return ts
  const offset = offsetAt(zoneNamed(name), floorSeconds(ts))
  return checkTimestamp(ts + BigInt(offset) * US)
}

/** The whole seconds of an interval used as a zone (east of UTC), as timestamp_izone reads it. */
function intervalZone(zone: Interval): bigint {
  if (infSign(zone) !== 0)
    throw new EvalError('interval time zone must be finite')
  if (zone.months !== 0 || zone.days !== 0)
    throw new EvalError('interval time zone must not include months or days')
  return (zone.usecs / US) * US
}

export function localToInterval(zone: Interval, ts: bigint): bigint {
  if (isInfinite(ts)) return ts
  return checkTimestamp(ts - intervalZone(zone))
}

export function instantInInterval(zone: Interval, ts: bigint): bigint {
  if (isInfinite(ts)) return ts
  return checkTimestamp(ts + intervalZone(zone))
}
