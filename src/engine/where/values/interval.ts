// interval as Postgres stores it (months, days, microseconds; ±infinity since Postgres 17):
// formatting (IntervalStyle iso_8601), comparing (a month counts 30 days) and adding to
// timestamps the way timestamp_pl_interval does. Input is interval-input.ts.
import { EvalError } from '../errors.ts'
import {
  checkTimestamp,
  civilFromDays,
  daysFromCivil,
  daysInMonth,
} from './datetime.ts'
import { TS_NEG_INF, TS_POS_INF, USECS_PER_DAY } from './datetime.ts'

export type Interval = { months: number; days: number; usecs: bigint }

const I32_MAX = 2 ** 31 - 1
const I64_MAX = 2n ** 63n - 1n
export const INTERVAL_POS_INF: Interval = {
  months: I32_MAX,
  days: I32_MAX,
  usecs: I64_MAX,
}
export const INTERVAL_NEG_INF: Interval = {
  months: -I32_MAX - 1,
  days: -I32_MAX - 1,
  usecs: -I64_MAX - 1n,
}

/** 1 for +infinity, -1 for -infinity, 0 for a finite interval. */
export const infSign = (i: Interval): number =>
  i.months === I32_MAX && i.days === I32_MAX && i.usecs === I64_MAX
    ? 1
    : i.months === -I32_MAX - 1 &&
        i.days === -I32_MAX - 1 &&
        i.usecs === -I64_MAX - 1n
      ? -1
      : 0

/** An interval from its fields, or the error Postgres gives when they overflow. */
export function checkedInterval(
  months: number,
  days: number,
  usecs: bigint,
): Interval {
  const out = (n: number) => n > I32_MAX || n < -I32_MAX - 1
  const r = { months, days, usecs }
  if (
    out(months) ||
    out(days) ||
    usecs > I64_MAX ||
    usecs < -I64_MAX - 1n ||
    infSign(r) !== 0
  )
    throw new EvalError('interval out of range')
  return r
}

/** IntervalStyle iso_8601, e.g. P1Y2M3DT4H5M6.5S, PT0S; every field carries its own sign. */
export function formatInterval(i: Interval): string {
  const inf = infSign(i)
  if (inf !== 0) return inf > 0 ? 'infinity' : '-infinity'
  const years = Math.trunc(i.months / 12)
  const months = i.months % 12
  const hours = i.usecs / 3_600_000_000n
  const minutes = (i.usecs / 60_000_000n) % 60n
  const micros = i.usecs % 60_000_000n
  if (i.months === 0 && i.days === 0 && i.usecs === 0n) return 'PT0S'
  let out = 'P'
  if (years) out += `${years}Y`
  if (months) out += `${months}M`
  if (i.days) out += `${i.days}D`
  if (i.usecs !== 0n) {
    out += 'T'
    if (hours) out += `${hours}H`
    if (minutes) out += `${minutes}M`
    if (micros) {
      const abs = micros < 0n ? -micros : micros
      const whole = abs / 1_000_000n
      const frac = (abs % 1_000_000n)
        .toString()
        .padStart(6, '0')
        .replace(/0+$/, '')
      out += `${micros < 0n ? '-' : ''}${whole}${frac ? `.${frac}` : ''}S`
    }
  }
  return out
}

/** interval_cmp: infinities at the ends, else the span with 30-day months and 24-hour days. */
export function compareInterval(a: Interval, b: Interval): number {
  const sa = infSign(a)
  const sb = infSign(b)
  if (sa !== 0 || sb !== 0) return Math.sign(sa - sb)
  const span = (i: Interval) =>
    (BigInt(i.months) * 30n + BigInt(i.days)) * USECS_PER_DAY + i.usecs
  const x = span(a)
  const y = span(b)
  return x < y ? -1 : x > y ? 1 : 0
}

export function negateInterval(i: Interval): Interval {
  const s = infSign(i)
  if (s !== 0) return s > 0 ? INTERVAL_NEG_INF : INTERVAL_POS_INF
  return checkedInterval(-i.months, -i.days, -i.usecs)
}

export function addIntervals(a: Interval, b: Interval): Interval {
  const sa = infSign(a)
  const sb = infSign(b)
  if (sa !== 0 || sb !== 0) {
    if (sa !== 0 && sb !== 0 && sa !== sb)
      throw new EvalError('interval out of range')
    return sa !== 0 ? a : b
  }
  return checkedInterval(
    a.months + b.months,
    a.days + b.days,
    a.usecs + b.usecs,
  )
}

/** timestamp_pl_interval (the session zone is UTC, so timestamptz adds the same way). */
export function addInterval(ts: bigint, i: Interval): bigint {
  const s = infSign(i)
  if (ts === TS_NEG_INF || ts === TS_POS_INF) {
    if (s !== 0 && s !== (ts === TS_POS_INF ? 1 : -1))
      throw new EvalError('timestamp out of range')
    return ts
  }
  if (s !== 0) return s > 0 ? TS_POS_INF : TS_NEG_INF
  let days = ts / USECS_PER_DAY - (ts % USECS_PER_DAY < 0n ? 1n : 0n)
  const time = ts - days * USECS_PER_DAY
  if (i.months !== 0) {
    const { y, m, d } = civilFromDays(Number(days))
    const total = y * 12 + (m - 1) + i.months
    const year = Math.floor(total / 12)
    const month = total - year * 12 + 1
    days = BigInt(
      daysFromCivil(year, month, Math.min(d, daysInMonth(year, month))),
    )
    checkTimestamp(days * USECS_PER_DAY + time)
  }
  days += BigInt(i.days)
  checkTimestamp(days * USECS_PER_DAY + time)
  return checkTimestamp(days * USECS_PER_DAY + time + i.usecs)
}

/** timestamp_mi: the difference as days and time (interval_justify_hours), never months. */
export function subtractTimestamps(a: bigint, b: bigint): Interval {
  const finiteA = a !== TS_NEG_INF && a !== TS_POS_INF
  const finiteB = b !== TS_NEG_INF && b !== TS_POS_INF
  if (!finiteA || !finiteB) {
    if (a === b) throw new EvalError('interval out of range')
    return a === TS_NEG_INF || b === TS_POS_INF
      ? INTERVAL_NEG_INF
      : INTERVAL_POS_INF
  }
  const diff = a - b
  const days = diff / USECS_PER_DAY
  return checkedInterval(0, Number(days), diff - days * USECS_PER_DAY)
}

/** time ± interval wraps around midnight; only the interval's microseconds count. */
export function timeAddInterval(time: number, i: Interval): number {
  if (infSign(i) !== 0)
    throw new EvalError('cannot add infinite interval to time')
  const r = (BigInt(time) + i.usecs) % USECS_PER_DAY
  return Number(r < 0n ? r + USECS_PER_DAY : r)
}

export function intervalToTime(i: Interval): number {
  if (infSign(i) !== 0)
    throw new EvalError('cannot convert infinite interval to time')
  const r = i.usecs % USECS_PER_DAY
  return Number(r < 0n ? r + USECS_PER_DAY : r)
}
