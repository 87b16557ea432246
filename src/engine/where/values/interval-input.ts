// interval input: the iso_8601 style replication sends (P1Y2M3DT4H5M6.5S), ISO designators,
// and the plain style (`1 day 02:00:00`, `1.5 hours`, `-2 mons`), with fractional units
// spilling into smaller fields as DecodeInterval does. Other forms (`ago`, `@`) are refused.
import {
  checkedInterval,
  INTERVAL_NEG_INF,
  INTERVAL_POS_INF,
  type Interval,
} from './interval.ts'

const MICRO = 1_000_000n
const USECS: Record<string, bigint> = {
  microsecond: 1n,
  millisecond: 1000n,
  second: MICRO,
  minute: 60n * MICRO,
  hour: 3600n * MICRO,
}
const ALIASES: Record<string, string> = {
  us: 'microsecond',
  usec: 'microsecond',
  usecs: 'microsecond',
  microseconds: 'microsecond',
  ms: 'millisecond',
  msec: 'millisecond',
  msecs: 'millisecond',
  milliseconds: 'millisecond',
  s: 'second',
  sec: 'second',
  secs: 'second',
  seconds: 'second',
  m: 'minute',
  min: 'minute',
  mins: 'minute',
  minutes: 'minute',
  h: 'hour',
  hr: 'hour',
  hrs: 'hour',
  hours: 'hour',
  d: 'day',
  days: 'day',
  w: 'week',
  weeks: 'week',
  mon: 'month',
  mons: 'month',
  months: 'month',
  y: 'year',
  yr: 'year',
  yrs: 'year',
  years: 'year',
}

/** A decimal string in millionths (refused beyond six decimals, which we would round). */
function millionths(num: string): bigint | undefined {
  const [int = '0', frac = ''] = num.replace(/^[+-]/, '').split('.')
  if (frac.length > 6) return undefined
  const n = BigInt((int || '0') + frac.padEnd(6, '0'))
  return num.startsWith('-') ? -n : n
}

type Fields = { months: number; days: number; usecs: bigint }

/** Adds `n` millionths of a day: whole days, the rest as microseconds. */
function addDays(f: Fields, n: bigint): void {
  f.days += Number(n / MICRO)
  f.usecs += (n % MICRO) * 86400n
}

// rint() on the fraction of a year in months: half to even.
function roundMonths(n: bigint): bigint {
  const q = n / MICRO
  const r = n % MICRO
  const twice = (r < 0n ? -r : r) * 2n
  const away = twice > MICRO || (twice === MICRO && q % 2n !== 0n)
  return away ? q + (n < 0n ? -1n : 1n) : q
}

function addUnit(f: Fields, unit: string, num: string): boolean {
  const n = millionths(num)
  if (n === undefined) return false
  const usecs = USECS[unit]
  if (usecs !== undefined) {
    const total = n * usecs
    if (total % MICRO !== 0n) return false
    f.usecs += total / MICRO
  } else if (unit === 'day' || unit === 'week') {
    addDays(f, unit === 'week' ? n * 7n : n)
  } else if (unit === 'month') {
    f.months += Number(n / MICRO)
    addDays(f, (n % MICRO) * 30n)
  } else if (unit === 'year') {
    f.months += Number((n / MICRO) * 12n + roundMonths((n % MICRO) * 12n))
  } else return false
  return true
}

function parsePlain(s: string): Interval | undefined {
  const f: Fields = { months: 0, days: 0, usecs: 0n }
  const token =
    /\s*(?:([+-]?)(\d+):(\d{1,2})(?::(\d{1,2}(?:\.\d{1,6})?))?|([+-]?\d+(?:\.\d*)?)\s*([a-z]+))/gy
  let at = 0
  for (let m = token.exec(s); m; m = token.exec(s)) {
    at = token.lastIndex
    if (m[2] !== undefined) {
      const secs = millionths(m[4] ?? '0') ?? 0n
      const t = (BigInt(m[2]) * 60n + BigInt(m[3] ?? 0)) * 60n * MICRO + secs
      f.usecs += m[1] === '-' ? -t : t
    } else if (!addUnit(f, ALIASES[m[6] ?? ''] ?? m[6] ?? '', m[5] ?? ''))
      return undefined
  }
  if (at !== s.length || at === 0) return undefined
  return checkedInterval(f.months, f.days, f.usecs)
}

function parseIso(s: string): Interval | undefined {
  const m =
    /^P(?:([+-]?\d+)Y)?(?:([+-]?\d+)M)?(?:([+-]?\d+)W)?(?:([+-]?\d+)D)?(?:T(?:([+-]?\d+)H)?(?:([+-]?\d+)M)?(?:([+-]?\d+(?:\.\d{1,6})?)S)?)?$/.exec(
      s,
    )
  if (!m || s === 'P' || s.endsWith('T')) return undefined
  const n = (i: number) => Number(m[i] ?? 0)
  const secs = millionths(m[7] ?? '0') ?? 0n
  const usecs = (BigInt(n(5)) * 60n + BigInt(n(6))) * 60n * MICRO + secs
  return checkedInterval(n(1) * 12 + n(2), n(3) * 7 + n(4), usecs)
}

export function parseInterval(text: string): Interval | undefined {
  const s = text.trim().toLowerCase()
  if (s === 'infinity' || s === '+infinity') return INTERVAL_POS_INF
  if (s === '-infinity') return INTERVAL_NEG_INF
  if (s.startsWith('p')) return parseIso(s.toUpperCase())
  // A bare number counts seconds.
  if (/^[+-]?\d+(\.\d*)?$/.test(s)) {
    const usecs = millionths(s)
    return usecs === undefined ? undefined : checkedInterval(0, 0, usecs)
  }
  return parsePlain(s)
}
