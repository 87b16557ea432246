// interval's justify_hours/days/interval and its scaling by a float8 (`*` and `/`), as
// interval_justify_* and interval_mul/interval_div compute them: fractional months and days
// cascade down into days and microseconds, never up; infinities pass through unchanged.
import { EvalError } from '../errors.ts'
import { USECS_PER_DAY } from './datetime.ts'
import { roundHalfEven } from './float.ts'
import {
  checkedInterval,
  compareInterval,
  infSign,
  INTERVAL_NEG_INF,
  INTERVAL_POS_INF,
  negateInterval,
  type Interval,
} from './interval.ts'

const DAYS_PER_MONTH = 30
const SECS_PER_DAY = 86_400
const OUT_OF_RANGE = 'interval out of range'
const ZERO: Interval = { months: 0, days: 0, usecs: 0n }

/** justify_hours: whole days of the time move into days; the two then share a sign. */
export function justifyHours(i: Interval): Interval {
  if (infSign(i) !== 0) return i
  const whole = i.usecs / USECS_PER_DAY
  let usecs = i.usecs - whole * USECS_PER_DAY
  let days = i.days + Number(whole)
  if (days > 0 && usecs < 0n) {
    usecs += USECS_PER_DAY
    days--
  } else if (days < 0 && usecs > 0n) {
    usecs -= USECS_PER_DAY
    days++
  }
  return checkedInterval(i.months, days, usecs)
}

/** justify_days: whole 30-day months of the days move into months; they then share a sign. */
export function justifyDays(i: Interval): Interval {
  if (infSign(i) !== 0) return i
  const whole = Math.trunc(i.days / DAYS_PER_MONTH)
  let days = i.days - whole * DAYS_PER_MONTH
  let months = i.months + whole
  if (months > 0 && days < 0) {
    days += DAYS_PER_MONTH
    months--
  } else if (months < 0 && days > 0) {
    days -= DAYS_PER_MONTH
    months++
  }
  return checkedInterval(months, days, i.usecs)
}

/** justify_interval: both of the above, with one sign for all three fields. */
export function justifyInterval(i: Interval): Interval {
  if (infSign(i) !== 0) return i
  const wholeDays = i.usecs / USECS_PER_DAY
  let usecs = i.usecs - wholeDays * USECS_PER_DAY
  let days = i.days + Number(wholeDays)
  const wholeMonths = Math.trunc(days / DAYS_PER_MONTH)
  days -= wholeMonths * DAYS_PER_MONTH
  let months = i.months + wholeMonths
  if (months > 0 && (days < 0 || (days === 0 && usecs < 0n))) {
    days += DAYS_PER_MONTH
    months--
  } else if (months < 0 && (days > 0 || (days === 0 && usecs > 0n))) {
    days -= DAYS_PER_MONTH
    months++
  }
  if (days > 0 && usecs < 0n) {
    usecs += USECS_PER_DAY
    days--
  } else if (days < 0 && usecs > 0n) {
    usecs -= USECS_PER_DAY
    days++
  }
  return checkedInterval(months, days, usecs)
}

const INT32_MIN = -(2 ** 31)
const INT64_MIN = -(2 ** 63)
/** C's (int32) of a double already checked to fit: truncation toward zero. */
function toInt32(x: number): number {
  if (Number.isNaN(x) || x < INT32_MIN || x >= -INT32_MIN)
    throw new EvalError(OUT_OF_RANGE)
  return Math.trunc(x)
}

// TSROUND: rounds to microsecond precision, which makes near-whole results whole.
const tsRound = (x: number) => roundHalfEven(x * 1e6) / 1e6

/** The whole and fractional parts of months and days scaled by `scale`, cascaded down. */
function scaleFinite(i: Interval, scale: (x: number) => number): Interval {
  const months = toInt32(scale(i.months))
  let days = toInt32(scale(i.days))
  const monthDays = tsRound((scale(i.months) - months) * DAYS_PER_MONTH)
  let secs = tsRound(
    (scale(i.days) - days + monthDays - Math.trunc(monthDays)) * SECS_PER_DAY,
  )
  if (Math.abs(secs) >= SECS_PER_DAY) {
    days = toInt32(days + Math.trunc(secs / SECS_PER_DAY))
    secs -= Math.trunc(secs / SECS_PER_DAY) * SECS_PER_DAY
  }
  days = toInt32(days + Math.trunc(monthDays))
  const usecs = roundHalfEven(scale(Number(i.usecs)) + secs * 1e6)
  if (Number.isNaN(usecs) || usecs < INT64_MIN || usecs >= -INT64_MIN)
    throw new EvalError(OUT_OF_RANGE)
  return checkedInterval(months, days, BigInt(usecs))
}

/** interval * float8 (and float8 * interval). */
export function multiplyInterval(i: Interval, factor: number): Interval {
  if (Number.isNaN(factor)) throw new EvalError(OUT_OF_RANGE)
  const sign = infSign(i)
  if (sign !== 0) {
    if (factor === 0) throw new EvalError(OUT_OF_RANGE)
    return factor < 0 ? negateInterval(i) : i
  }
  if (!Number.isFinite(factor)) {
    const s = compareInterval(i, ZERO)
    if (s === 0) throw new EvalError(OUT_OF_RANGE)
    return factor * s < 0 ? INTERVAL_NEG_INF : INTERVAL_POS_INF
  }
  return scaleFinite(i, (x) => x * factor)
}

/** interval / float8. */
export function divideInterval(i: Interval, divisor: number): Interval {
  if (divisor === 0) throw new EvalError('division by zero')
  if (Number.isNaN(divisor)) throw new EvalError(OUT_OF_RANGE)
  if (infSign(i) !== 0) {
    if (!Number.isFinite(divisor)) throw new EvalError(OUT_OF_RANGE)
    return divisor < 0 ? negateInterval(i) : i
  }
  if (!Number.isFinite(divisor)) return ZERO
  return scaleFinite(i, (x) => x / divisor)
}
