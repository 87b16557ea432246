// numeric ^ numeric, bounded as Postgres's power_var_int is: the result's scale comes from an
// estimate of its size, and the repeated squaring keeps only the digits that can reach that
// scale, so `1.0000000001 ^ 10000000` costs a few short multiplications, not a 100M-digit one.
import { charge } from '../budget.ts'
import { EvalError } from '../errors.ts'
import {
  compareNumeric,
  COST,
  chargeDigits,
  Decimal,
  decimalFromInt,
  digitsOf,
  divideTo,
  floatToNumeric,
  MAX_DISPLAY_SCALE,
  MAX_WEIGHT_DIGITS,
  MIN_SIG_DIGITS,
  NAN,
  numericToFloat,
  pow10,
  roundTo,
} from './numeric.ts'

const INT32_MAX = 2 ** 31 - 1

/** c × 10^e, the working form of the squaring (e may be positive once digits are dropped). */
type Scaled = { c: bigint; e: number }

function multiply(x: Scaled, y: Scaled, sig: number): Scaled {
  chargeDigits(COST.multiply, x.c, y.c)
  const c = x.c * y.c
  const digits = digitsOf(c)
  if (digits <= sig + 2) return { c, e: x.e + y.e }
  // Truncating keeps `sig` digits; the guard digits in `sig` absorb the error, as in numeric.c.
  const drop = digits - sig
  charge(COST.divide * digits)
  return { c: c / pow10(drop), e: x.e + y.e + drop }
}

const overflow = (): never => {
  throw new EvalError('value overflows numeric format')
}

/** Integer digits of x, at most two over the truth (only compared with far larger limits). */
const weightOf = (x: Scaled): number => digitsOf(x.c) + x.e

function toDecimal(x: Scaled): Decimal {
  if (x.e >= 0) {
    chargeDigits(COST.multiply, x.c)
    charge(COST.multiply * x.e)
    return new Decimal(x.c * pow10(x.e), 0)
  }
  return new Decimal(x.c, -x.e)
}

/** base ^ n for an integral n within int32, as power_var_int computes it. */
function powerInt(a: Decimal, n: number, expScale: number): Decimal {
  let rscale = MIN_SIG_DIGITS
  let f = 0
  if (a.coef !== 0n) {
    f = Math.log10(Math.abs(numericToFloat(a))) * n
    if (f > MAX_WEIGHT_DIGITS) overflow()
    // Too small to show in the largest display scale: zero, as Postgres answers.
    if (f + 1 < -MAX_DISPLAY_SCALE) return new Decimal(0n, MAX_DISPLAY_SCALE)
    rscale = MIN_SIG_DIGITS - Math.trunc(f)
  }
  rscale = Math.min(Math.max(rscale, a.scale, expScale, 0), MAX_DISPLAY_SCALE)
  const neg = n < 0
  let m = Math.abs(n)
  // Significant digits worth keeping: the result's, plus guard digits for the rounding
  // error that grows with the number of multiplications.
  const sig = Math.max(
    1 + rscale + Math.trunc(f) + Math.trunc(Math.log(m || 1)) + 8,
    MIN_SIG_DIGITS,
  )
  let base: Scaled = { c: a.coef, e: -a.scale }
  let result: Scaled = m & 1 ? base : { c: 1n, e: 0 }
  while ((m = Math.floor(m / 2)) > 0) {
    base = multiply(base, base, sig)
    if (m & 1) result = multiply(result, base, sig)
    // Past numeric's weight the end result overflows, or underflows to zero for n < 0.
    if (
      weightOf(base) > MAX_WEIGHT_DIGITS + 4 ||
      weightOf(result) > MAX_WEIGHT_DIGITS + 4
    ) {
      if (!neg) overflow()
      return new Decimal(0n, rscale)
    }
  }
  if (!neg) return roundTo(toDecimal(result), rscale)
  return divideTo(decimalFromInt(1), toDecimal(result), rscale)
}

/**
 * numeric ^ numeric. Integral exponents (within int32) follow power_var_int, rounded to the
 * scale it picks (16 significant digits, at least the inputs' scales); other exponents go
 * through float8 and are an approximation.
 */
export function powerNumeric(a: Decimal, b: Decimal): Decimal {
  if (a.special === 'NaN' || b.special === 'NaN') {
    if (a.special !== 'NaN' && compareNumeric(a, decimalFromInt(1)) === 0)
      return a
    if (b.special !== 'NaN' && b.coef === 0n) return decimalFromInt(1)
    return NAN
  }
  if (a.special || b.special) {
    const result = Math.pow(numericToFloat(a), numericToFloat(b))
    return floatToNumeric(result, 15)
  }
  if (a.coef === 0n && b.coef < 0n)
    throw new EvalError('zero raised to a negative power is undefined')
  chargeDigits(COST.divide, b.coef)
  const integral = b.coef % pow10(b.scale) === 0n
  if (integral) {
    const n = Number(b.coef / pow10(b.scale))
    if (Math.abs(n) <= INT32_MAX) return powerInt(a, n, b.scale)
  } else if (a.coef < 0n)
    throw new EvalError(
      'a negative number raised to a non-integer power yields a complex result',
    )
  const result = Math.pow(numericToFloat(a), numericToFloat(b))
  if (!Number.isFinite(result)) overflow()
  return floatToNumeric(result, 15)
}
