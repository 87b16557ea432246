// date, timestamp[tz] and time as Postgres stores them: days, or microseconds, since
// 1970-01-01 (UTC; the session TimeZone is UTC), with the proleptic Gregorian calendar, ±infinity
// and the ISO DateStyle text forms. Input accepts ISO forms only; other styles are refused.
import { EvalError } from '../errors.ts'

export const USECS_PER_DAY = 86_400_000_000n
const USECS_PER_DAY_N = 86_400_000_000
/** timestamp ±infinity are int64's extremes, as in Postgres, so ordering needs no cases. */
export const TS_NEG_INF = -(2n ** 63n)
export const TS_POS_INF = 2n ** 63n - 1n
// Postgres's valid ranges: 4714-11-24 BC (Julian day 0) to 5874897-12-31 for dates, to
// 294276-12-31 23:59:59.999999 for timestamps.
const MIN_DAY = daysFromCivil(-4713, 11, 24)
const MAX_DAY = daysFromCivil(5874897, 12, 31)
const MIN_TS = BigInt(MIN_DAY) * USECS_PER_DAY
const END_TS = BigInt(daysFromCivil(294277, 1, 1)) * USECS_PER_DAY

/** Days since 1970-01-01 of a proleptic Gregorian date (year 0 = 1 BC). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y
  const era = Math.floor(yy / 400)
  const yoe = yy - era * 400
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
}

export function civilFromDays(days: number): {
  y: number
  m: number
  d: number
} {
  const z = days + 719468
  const era = Math.floor(z / 146097)
  const doe = z - era * 146097
  const yoe = Math.floor(
    (doe -
      Math.floor(doe / 1460) +
      Math.floor(doe / 36524) -
      Math.floor(doe / 146096)) /
      365,
  )
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1
  const m = mp < 10 ? mp + 3 : mp - 9
  return { y: yoe + era * 400 + (m <= 2 ? 1 : 0), m, d }
}

export function daysInMonth(y: number, m: number): number {
  return (
    daysFromCivil(m === 12 ? y + 1 : y, m === 12 ? 1 : m + 1, 1) -
    daysFromCivil(y, m, 1)
  )
}

function checkDate(days: number): number {
  if (!Number.isFinite(days)) return days
  if (days < MIN_DAY || days > MAX_DAY) throw new EvalError('date out of range')
  return days
}

export function checkTimestamp(us: bigint): bigint {
  if (us === TS_NEG_INF || us === TS_POS_INF) return us
  if (us < MIN_TS || us >= END_TS) throw new EvalError('timestamp out of range')
  return us
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0')

// Year ≤ 0 is written as (1 - year) BC.
function formatYmd(
  y: number,
  m: number,
  d: number,
): { text: string; bc: boolean } {
  const bc = y <= 0
  return { text: `${pad(bc ? 1 - y : y, 4)}-${pad(m, 2)}-${pad(d, 2)}`, bc }
}

export function formatDate(days: number): string {
  if (days === Infinity) return 'infinity'
  if (days === -Infinity) return '-infinity'
  const { y, m, d } = civilFromDays(days)
  const { text, bc } = formatYmd(y, m, d)
  return bc ? `${text} BC` : text
}

/** `HH:MM:SS[.ffffff]` with the fraction's trailing zeros dropped. */
export function formatTime(us: number): string {
  const secs = Math.floor(us / 1e6)
  const frac = us - secs * 1e6
  const text = `${pad(Math.floor(secs / 3600), 2)}:${pad(Math.floor(secs / 60) % 60, 2)}:${pad(secs % 60, 2)}`
  return frac === 0 ? text : `${text}.${pad(frac, 6).replace(/0+$/, '')}`
}

export function formatTimestamp(us: bigint, withZone: boolean): string {
  if (us === TS_POS_INF) return 'infinity'
  if (us === TS_NEG_INF) return '-infinity'
  const days = us / USECS_PER_DAY - (us % USECS_PER_DAY < 0n ? 1n : 0n)
  const time = Number(us - days * USECS_PER_DAY)
  const { y, m, d } = civilFromDays(Number(days))
  const { text, bc } = formatYmd(y, m, d)
  return `${text} ${formatTime(time)}${withZone ? '+00' : ''}${bc ? ' BC' : ''}`
}

type Parsed = { days: number; time: number; offset: number }

const DATE = /^(\d{4,})-(\d{2})-(\d{2})/
const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?/
const ZONE =
  /^\s*(?:([zZ]|[uU][tT][cC]|[gG][mM][tT])|([+-])(\d{2})(?::?(\d{2})(?::?(\d{2}))?)?)/

function parseDatePart(
  s: string,
  bc: boolean,
): { days: number; rest: string } | undefined {
  const m = DATE.exec(s)
  if (!m) return undefined
  const year = Number(m[1])
  const month = Number(m[2])
  const day = Number(m[3])
  if (year === 0 || month < 1 || month > 12) return undefined
  const y = bc ? 1 - year : year
  if (day < 1 || day > daysInMonth(y, month)) return undefined
  return { days: daysFromCivil(y, month, day), rest: s.slice(m[0].length) }
}

function parseTimePart(s: string): { time: number; rest: string } | undefined {
  const m = TIME.exec(s)
  if (!m) return undefined
  const h = Number(m[1])
  const mi = Number(m[2])
  const sec = Number(m[3] ?? 0)
  const frac = Number((m[4] ?? '').padEnd(6, '0'))
  const time = ((h * 60 + mi) * 60 + sec) * 1e6 + frac
  // 24:00:00 is allowed (it is the end of the day); nothing else past 23:59:59.999999.
  if (mi > 59 || sec > 59 || h > 24 || (h === 24 && time !== USECS_PER_DAY_N))
    return undefined
  return { time, rest: s.slice(m[0].length) }
}

function splitEra(text: string): { s: string; bc: boolean } {
  const s = text.trim()
  const bc = / BC$/i.test(s)
  return { s: bc ? s.slice(0, -3).trimEnd() : s.replace(/ AD$/i, ''), bc }
}

function parseDateTime(text: string): Parsed | undefined {
  const { s, bc } = splitEra(text)
  const date = parseDatePart(s, bc)
  if (!date) return undefined
  if (date.rest === '') return { days: date.days, time: 0, offset: 0 }
  if (!/^[ T]/.test(date.rest)) return undefined
  const time = parseTimePart(date.rest.slice(1).trimStart())
  if (!time) return undefined
  if (time.rest === '') return { days: date.days, time: time.time, offset: 0 }
  const zone = ZONE.exec(time.rest)
  if (!zone || zone[0].length !== time.rest.length) return undefined
  const offset = zone[1]
    ? 0
    : (zone[2] === '-' ? -1 : 1) *
      (Number(zone[3]) * 3600 +
        Number(zone[4] ?? 0) * 60 +
        Number(zone[5] ?? 0))
  return { days: date.days, time: time.time, offset }
}

const INFINITIES: Record<string, number> = {
  infinity: 1,
  '+infinity': 1,
  '-infinity': -1,
}

export function parseDate(text: string): number | undefined {
  const inf = INFINITIES[text.trim().toLowerCase()]
  if (inf !== undefined) return inf * Infinity
  const { s, bc } = splitEra(text)
  const date = parseDatePart(s, bc)
  if (!date || date.rest !== '' || date.days < MIN_DAY || date.days > MAX_DAY)
    return undefined
  return date.days
}

// What timestamp[tz]_out prints for AD years (ISO DateStyle, UTC), read without the general
// path: it is what every replicated row carries.
const CANONICAL =
  /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?(\+00)?$/

function parseCanonical(text: string, withZone: boolean): bigint | undefined {
  const m = CANONICAL.exec(text)
  if (!m || (m[8] !== undefined) !== withZone) return undefined
  // Indexed reads: destructuring through the iterator costs more than the rest together.
  const y = Number(m[1])
  const mo = Number(m[2])
  const d = Number(m[3])
  const h = Number(m[4])
  const mi = Number(m[5])
  const s = Number(m[6])
  if (y === 0 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo))
    return undefined
  if (h > 23 || mi > 59 || s > 59) return undefined
  const time =
    ((h * 60 + mi) * 60 + s) * 1e6 + Number((m[7] ?? '').padEnd(6, '0'))
  return BigInt(daysFromCivil(y, mo, d)) * USECS_PER_DAY + BigInt(time)
}

/** A timestamp without time zone ignores a zone in its input, as Postgres does. */
export function parseTimestamp(
  text: string,
  withZone: boolean,
): bigint | undefined {
  const canonical = parseCanonical(text, withZone)
  if (canonical !== undefined) return canonical
  const inf = INFINITIES[text.trim().toLowerCase()]
  if (inf !== undefined) return inf > 0 ? TS_POS_INF : TS_NEG_INF
  const p = parseDateTime(text)
  if (!p) return undefined
  const offset = withZone ? BigInt(p.offset) * 1_000_000n : 0n
  const us = BigInt(p.days) * USECS_PER_DAY + BigInt(p.time) - offset
  return us < MIN_TS || us >= END_TS ? undefined : us
}

export function parseTime(text: string): number | undefined {
  const t = parseTimePart(text.trim())
  return t && t.rest === '' ? t.time : undefined
}

export function dateToTimestamp(days: number): bigint {
  if (days === Infinity) return TS_POS_INF
  if (days === -Infinity) return TS_NEG_INF
  const us = BigInt(days) * USECS_PER_DAY
  if (us >= END_TS) throw new EvalError('date out of range for timestamp')
  return us
}

export function timestampToDate(us: bigint): number {
  if (us === TS_POS_INF) return Infinity
  if (us === TS_NEG_INF) return -Infinity
  return Number(us / USECS_PER_DAY - (us % USECS_PER_DAY < 0n ? 1n : 0n))
}

/** The time of day, or null for an infinite timestamp (timestamp_time returns NULL). */
export function timestampToTime(us: bigint): number | null {
  if (us === TS_POS_INF || us === TS_NEG_INF) return null
  const r = us % USECS_PER_DAY
  return Number(r < 0n ? r + USECS_PER_DAY : r)
}

export function addDays(days: number, n: number): number {
  if (!Number.isFinite(days)) return days
  return checkDate(days + n)
}

export function subtractDates(a: number, b: number): number {
  if (!Number.isFinite(a) || !Number.isFinite(b))
    throw new EvalError('cannot subtract infinite dates')
  return a - b
}

export function dateAddTime(days: number, time: number): bigint {
  const ts = dateToTimestamp(days)
  if (ts === TS_POS_INF || ts === TS_NEG_INF) return ts
  return checkTimestamp(ts + BigInt(time))
}
