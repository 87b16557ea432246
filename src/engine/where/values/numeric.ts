// Postgres `numeric` values, exact: a scaled bigint plus the display scale (so 1.50 keeps its
// zero, as numeric_out prints it), and the specials NaN and ±Infinity with Postgres's ordering.
import { charge } from '../budget.ts'
import { EvalError } from '../errors.ts'

export type NumericSpecial = 'NaN' | 'Infinity' | '-Infinity'

export class Decimal {
  constructor(
    /** The value times 10^scale. */
    readonly coef: bigint,
    readonly scale: number,
    readonly special?: NumericSpecial,
  ) {}
}

export const NAN = new Decimal(0n, 0, 'NaN')
const INF = new Decimal(0n, 0, 'Infinity')
const NEG_INF = new Decimal(0n, 0, '-Infinity')
// numeric.c: NUMERIC_MIN_SIG_DIGITS, NUMERIC_MAX_DISPLAY_SCALE, DEC_DIGITS.
export const MIN_SIG_DIGITS = 16
export const MAX_DISPLAY_SCALE = 1000
const DEC_DIGITS = 4
// numeric's storage limits (NUMERIC_WEIGHT_MAX base-10000 digits before the point,
// NUMERIC_DSCALE_MAX after it): Postgres answers "value overflows numeric format" past them.
export const MAX_WEIGHT_DIGITS = 131072
const MAX_DSCALE = 16383

// Budget units per decimal digit (about a nanosecond each on big values, see limits.ts):
// bigint addition is linear, multiplication and parsing cost more, division and printing most.
export const COST = { add: 1, multiply: 30, parse: 80, divide: 90, print: 300 }

export const pow10 = (n: number): bigint => 10n ** BigInt(n)
const abs = (n: bigint): bigint => (n < 0n ? -n : n)

const SMALL = 2n ** 53n
const LOG10_16 = Math.log10(16)

const isBig = (n: bigint): boolean => n >= SMALL || n <= -SMALL

/** Decimal digits of |n|: exact when small, else at most two over (from its hex length). */
export function digitsOf(n: bigint): number {
  if (!isBig(n)) return abs(n).toString().length
  const hex = n.toString(16).length - (n < 0n ? 1 : 0)
  return Math.ceil(hex * LOG10_16)
}

/** Charges `unit` per digit of the big coefficients; small ones (the usual case) are free. */
export function chargeDigits(unit: number, a: bigint, b = 0n): void {
  if (isBig(a) || isBig(b)) charge(unit * (digitsOf(a) + digitsOf(b)))
}

/** Refuses a result with more than MAX_WEIGHT_DIGITS digits before the point. */
function checkWeight(d: Decimal): Decimal {
  if (!isBig(d.coef)) return d
  const estimate = digitsOf(d.coef) - d.scale
  if (estimate <= MAX_WEIGHT_DIGITS) return d
  // The estimate may be two over: settle the boundary exactly.
  if (
    estimate > MAX_WEIGHT_DIGITS + 2 ||
    abs(d.coef) >= pow10(MAX_WEIGHT_DIGITS + d.scale)
  )
    throw new EvalError('value overflows numeric format')
  return d
}

export function decimalFromInt(value: number | bigint): Decimal {
  return new Decimal(BigInt(value), 0)
}

/** numeric_in's syntax, minus underscores and non-decimal forms (refused, never misread). */
export function parseNumeric(text: string): Decimal | undefined {
  const s = text.trim()
  const special = s.toLowerCase().replace(/^\+/, '')
  if (special === 'nan') return NAN
  if (special === 'infinity' || special === 'inf') return INF
  if (special === '-infinity' || special === '-inf') return NEG_INF
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(s)
  if (!m) return undefined
  const [, sign = '', int = '', frac = '', exp] = m
  if (int === '' && frac === '') return undefined
  let scale = frac.length - (exp === undefined ? 0 : Number(exp))
  // numeric's limits (131072 digits before the point, 16383 after): Postgres refuses more.
  if (
    int.length + frac.length - scale > MAX_WEIGHT_DIGITS ||
    scale > MAX_DSCALE
  )
    return undefined
  charge(COST.parse * (int.length + frac.length + Math.max(-scale, 0)))
  let coef = BigInt(int + frac || '0')
  if (scale < 0) {
    coef *= pow10(-scale)
    scale = 0
  }
  return new Decimal(sign === '-' ? -coef : coef, scale)
}

export function formatNumeric(d: Decimal): string {
  if (d.special) return d.special
  chargeDigits(COST.print, d.coef)
  const digits = abs(d.coef)
    .toString()
    .padStart(d.scale + 1, '0')
  const int = digits.slice(0, digits.length - d.scale)
  const frac = digits.slice(digits.length - d.scale)
  return (d.coef < 0n ? '-' : '') + int + (d.scale > 0 ? `.${frac}` : '')
}

function rescale(d: Decimal, scale: number): bigint {
  return d.coef * pow10(scale - d.scale)
}

// NaN sorts above everything, then +Infinity; -Infinity below every finite value.
const rank = (d: Decimal): number =>
  d.special === 'NaN' ? 2 : d.special === 'Infinity' ? 1 : d.special ? -1 : 0

export function compareNumeric(a: Decimal, b: Decimal): number {
  const ra = rank(a)
  const rb = rank(b)
  if (ra !== 0 || rb !== 0) return Math.sign(ra - rb)
  const scale = Math.max(a.scale, b.scale)
  chargeDigits(COST.add, a.coef, b.coef)
  const x = rescale(a, scale)
  const y = rescale(b, scale)
  return x < y ? -1 : x > y ? 1 : 0
}

export function negateNumeric(d: Decimal): Decimal {
  if (d.special === 'Infinity') return NEG_INF
  if (d.special === '-Infinity') return INF
  return d.special ? d : new Decimal(-d.coef, d.scale)
}

export function absNumeric(d: Decimal): Decimal {
  if (d.special) return d.special === 'NaN' ? d : INF
  return new Decimal(abs(d.coef), d.scale)
}

const sign = (d: Decimal): number =>
  d.special === 'Infinity'
    ? 1
    : d.special === '-Infinity'
      ? -1
      : d.coef > 0n
        ? 1
        : d.coef < 0n
          ? -1
          : 0

const infinity = (s: number): Decimal => (s > 0 ? INF : NEG_INF)

export function addNumeric(a: Decimal, b: Decimal): Decimal {
  if (a.special || b.special) {
    if (a.special === 'NaN' || b.special === 'NaN') return NAN
    if (a.special && b.special) return a.special === b.special ? a : NAN
    return a.special ? a : b
  }
  const scale = Math.max(a.scale, b.scale)
  chargeDigits(COST.add, a.coef, b.coef)
  return checkWeight(new Decimal(rescale(a, scale) + rescale(b, scale), scale))
}

export function subtractNumeric(a: Decimal, b: Decimal): Decimal {
  return addNumeric(a, negateNumeric(b))
}

export function multiplyNumeric(a: Decimal, b: Decimal): Decimal {
  if (a.special || b.special) {
    if (a.special === 'NaN' || b.special === 'NaN') return NAN
    const s = sign(a) * sign(b)
    return s === 0 ? NAN : infinity(s)
  }
  if (isBig(a.coef) || isBig(b.coef)) {
    // Refused before the work when the product cannot fit (digits add up, give or take one).
    const weight = digitsOf(a.coef) - a.scale + digitsOf(b.coef) - b.scale
    if (weight > MAX_WEIGHT_DIGITS + 6)
      throw new EvalError('value overflows numeric format')
    chargeDigits(COST.multiply, a.coef, b.coef)
  }
  const product = new Decimal(a.coef * b.coef, a.scale + b.scale)
  // numeric_mul keeps the exact product's scale, rounded to what numeric can store.
  return checkWeight(
    product.scale > MAX_DSCALE ? roundTo(product, MAX_DSCALE) : product,
  )
}

/** Integer division rounding half away from zero (numeric.c's round_var). */
function roundDiv(n: bigint, d: bigint): bigint {
  const q = n / d
  const r = abs(n % d)
  if (2n * r >= abs(d)) return n < 0n !== d < 0n ? q - 1n : q + 1n
  return q
}

/** The first non-zero base-10000 digit of |d| and its weight, as numeric.c stores them. */
function leadingGroup(d: Decimal): { weight: number; digit: number } {
  if (d.coef === 0n) return { weight: 0, digit: 0 }
  // Only the first digits matter: a big value has the rest cut off rather than printed.
  const drop = isBig(d.coef) ? Math.max(digitsOf(d.coef) - 20, 0) : 0
  if (drop > 0) chargeDigits(COST.multiply, d.coef)
  const s = (drop > 0 ? abs(d.coef) / pow10(drop) : abs(d.coef)).toString()
  const length = s.length + drop
  const e10 = length - 1 - d.scale
  const weight = Math.floor(e10 / DEC_DIGITS)
  const width = e10 - weight * DEC_DIGITS + 1
  return { weight, digit: Number(s.slice(0, width).padEnd(width, '0')) }
}

/** numeric.c's select_div_scale: at least 16 significant digits, never fewer decimals. */
function divisionScale(a: Decimal, b: Decimal): number {
  const x = leadingGroup(a)
  const y = leadingGroup(b)
  let qweight = x.weight - y.weight
  if (x.digit <= y.digit) qweight--
  const scale = Math.max(
    MIN_SIG_DIGITS - qweight * DEC_DIGITS,
    a.scale,
    b.scale,
    0,
  )
  return Math.min(scale, MAX_DISPLAY_SCALE)
}

export function divideTo(a: Decimal, b: Decimal, scale: number): Decimal {
  // a/b * 10^scale = a.coef * 10^(scale - a.scale + b.scale) / b.coef
  const shift = scale - a.scale + b.scale
  chargeDigits(COST.divide, a.coef, b.coef)
  if (Math.abs(shift) > 16) charge(COST.divide * Math.abs(shift))
  const n = shift >= 0 ? a.coef * pow10(shift) : a.coef
  const d = shift >= 0 ? b.coef : b.coef * pow10(-shift)
  return checkWeight(new Decimal(roundDiv(n, d), scale))
}

export function divideNumeric(a: Decimal, b: Decimal): Decimal {
  if (b.special === undefined && b.coef === 0n && a.special !== 'NaN')
    throw new EvalError('division by zero')
  if (a.special || b.special) {
    if (a.special === 'NaN' || b.special === 'NaN') return NAN
    if (a.special && b.special) return NAN
    if (b.special) return new Decimal(0n, 0)
    return infinity(sign(a) * sign(b))
  }
  return divideTo(a, b, divisionScale(a, b))
}

export function moduloNumeric(a: Decimal, b: Decimal): Decimal {
  if (b.special === undefined && b.coef === 0n && a.special !== 'NaN')
    throw new EvalError('division by zero')
  if (a.special || b.special) {
    if (a.special || b.special === 'NaN') return NAN
    return a // finite % ±Infinity
  }
  const scale = Math.max(a.scale, b.scale)
  chargeDigits(COST.divide, a.coef, b.coef)
  return new Decimal(rescale(a, scale) % rescale(b, scale), scale)
}

/** Rounds half away from zero to an integer (numeric → int casts). */
export function roundNumericToInt(d: Decimal): bigint {
  if (d.special) throw new EvalError(`cannot convert ${d.special} to integer`)
  return roundDiv(d.coef, pow10(d.scale))
}

export function numericToFloat(d: Decimal): number {
  if (d.special === 'NaN') return NaN
  if (d.special) return d.special === 'Infinity' ? Infinity : -Infinity
  return Number(formatNumeric(d))
}

/** float8_numeric / float4_numeric: the float printed with DBL_DIG (15) or FLT_DIG (6) digits. */
export function floatToNumeric(x: number, digits: 15 | 6): Decimal {
  if (Number.isNaN(x)) return NAN
  if (!Number.isFinite(x)) return x > 0 ? INF : NEG_INF
  const parsed = parseNumeric(x.toPrecision(digits))
  if (!parsed) throw new EvalError(`cannot convert ${x} to numeric`)
  // %g drops trailing zeros; numeric_in then keeps only the digits printed.
  return trimTrailingZeros(parsed)
}

function trimTrailingZeros(d: Decimal): Decimal {
  let { coef, scale } = d
  while (scale > 0 && coef % 10n === 0n) {
    coef /= 10n
    scale--
  }
  return new Decimal(coef, scale)
}

export function roundTo(d: Decimal, scale: number): Decimal {
  if (d.scale <= scale) return new Decimal(rescale(d, scale), scale)
  return new Decimal(roundDiv(d.coef, pow10(d.scale - scale)), scale)
}
