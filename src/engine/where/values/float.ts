// float4/float8 as Postgres has them: strict input, shortest-exact output (extra_float_digits
// > 0), NaN equal to itself and above every number, and errors where C would overflow.
import { EvalError } from '../errors.ts'

export type FloatKind = 'float4' | 'float8'

const round = (kind: FloatKind, x: number): number =>
  kind === 'float4' ? Math.fround(x) : x

/** float8in/float4in for decimal forms and the specials; hex floats are refused. */
export function parseFloat(kind: FloatKind, text: string): number | undefined {
  const s = text.trim()
  const lower = s.toLowerCase().replace(/^\+/, '')
  if (lower === 'nan') return NaN
  if (lower === 'infinity' || lower === 'inf') return Infinity
  if (lower === '-infinity' || lower === '-inf') return -Infinity
  const m = /^[+-]?(\d*)(?:\.(\d*))?(?:[eE][+-]?\d+)?$/.exec(s)
  if (!m || (m[1] === '' && (m[2] ?? '') === '')) return undefined
  const value = round(kind, Number(s))
  // strtod's ERANGE: Postgres refuses out-of-range input rather than rounding it to 0 or ∞.
  const nonZeroDigits = /[1-9]/.test(`${m[1]}${m[2] ?? ''}`)
  if (!Number.isFinite(value) || (value === 0 && nonZeroDigits))
    return undefined
  return value
}

function shortestDigits(
  kind: FloatKind,
  x: number,
): { digits: string; exp: number } {
  let repr = x.toExponential()
  if (kind === 'float4') {
    for (let p = 1; p <= 9; p++) {
      const candidate = x.toExponential(p - 1)
      if (Math.fround(Number(candidate)) === x) {
        repr = candidate
        break
      }
    }
  }
  const [mantissa = '', exp = '0'] = repr.split('e')
  return {
    digits: mantissa.replace('-', '').replace('.', ''),
    exp: Number(exp),
  }
}

/** float8out/float4out: fixed notation for exponents -4..(DBL_DIG|FLT_DIG)-1, else d.ddde±XX. */
export function formatFloat(kind: FloatKind, x: number): string {
  if (Number.isNaN(x)) return 'NaN'
  if (x === Infinity) return 'Infinity'
  if (x === -Infinity) return '-Infinity'
  if (x === 0) return Object.is(x, -0) ? '-0' : '0'
  const sign = x < 0 ? '-' : ''
  const { digits, exp } = shortestDigits(kind, Math.abs(x))
  const maxExp = kind === 'float4' ? 6 : 15
  if (exp < -4 || exp >= maxExp) {
    const mantissa =
      digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits
    const e = Math.abs(exp).toString().padStart(2, '0')
    return `${sign}${mantissa}e${exp < 0 ? '-' : '+'}${e}`
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`
  if (digits.length <= exp + 1) return sign + digits.padEnd(exp + 1, '0')
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`
}

/** float8_cmp_internal: NaNs are equal to each other and greater than any other value. */
export function compareFloat(a: number, b: number): number {
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : 1
  if (Number.isNaN(b)) return -1
  return a < b ? -1 : a > b ? 1 : 0
}

function checked(
  kind: FloatKind,
  result: number,
  inputsFinite: boolean,
): number {
  const r = round(kind, result)
  if (!Number.isFinite(r) && !Number.isNaN(r) && inputsFinite)
    throw new EvalError('value out of range: overflow')
  return r
}

export function floatArithmetic(
  kind: FloatKind,
  op: '+' | '-' | '*' | '/',
): (a: number, b: number) => number {
  return (a, b) => {
    const finite = Number.isFinite(a) && Number.isFinite(b)
    switch (op) {
      case '+':
        return checked(kind, a + b, finite)
      case '-':
        return checked(kind, a - b, finite)
      case '*': {
        const r = checked(kind, a * b, finite)
        if (r === 0 && a !== 0 && b !== 0 && finite)
          throw new EvalError('value out of range: underflow')
        return r
      }
      case '/': {
        if (b === 0 && !Number.isNaN(a)) throw new EvalError('division by zero')
        const r = checked(kind, a / b, Number.isFinite(a))
        if (r === 0 && a !== 0 && Number.isFinite(b) && Number.isFinite(a))
          throw new EvalError('value out of range: underflow')
        return r
      }
    }
  }
}

/** float8pow with C's pow() special cases, which Math.pow does not share (1^NaN = 1). */
export function powerFloat(a: number, b: number): number {
  if (Number.isNaN(a)) return b === 0 ? 1 : NaN
  if (Number.isNaN(b)) return a === 1 ? 1 : NaN
  if (a === 0 && b < 0)
    throw new EvalError('zero raised to a negative power is undefined')
  if (a < 0 && Number.isFinite(b) && Math.floor(b) !== b)
    throw new EvalError(
      'a negative number raised to a non-integer power yields a complex result',
    )
  if (!Number.isFinite(b)) {
    const abs = Math.abs(a)
    if (abs === 1) return 1
    if (b > 0) return abs > 1 ? b : 0
    return abs > 1 ? 0 : -b
  }
  const r = Math.pow(a, b)
  if (Number.isFinite(a)) {
    if (!Number.isFinite(r)) throw new EvalError('value out of range: overflow')
    if (r === 0 && a !== 0) throw new EvalError('value out of range: underflow')
  }
  return r
}

/** rint(): float → integer casts round half to even. */
export function roundHalfEven(x: number): number {
  const r = Math.round(x)
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r
}

/** dsqrt: IEEE sqrt (correctly rounded, as C's), refusing negative numbers. */
export function sqrtFloat(x: number): number {
  if (x < 0) throw new EvalError('cannot take square root of a negative number')
  return Math.sqrt(x)
}
