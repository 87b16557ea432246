// How one environment variable's text becomes a value, as Electric's server reads the same
// variable (config/runtime.exs): its booleans, whole numbers, human-readable times and JSON.
// Each answers the value or the words of what is wrong; the caller names the variable.

export type Read<T> = { ok: true; value: T } | { ok: false; error: string }

const ok = <T>(value: T): Read<T> => ({ ok: true, value })
const bad = (error: string): Read<never> => ({ ok: false, error })

/**
 * `true`, `false`, `1` or `0`, in any case. Electric also takes any other text for true
 * (`no` included): such a value is refused here rather than read one way by Electric and
 * another by the engine.
 */
export function readBoolean(text: string): Read<boolean> {
  const word = text.trim().toLowerCase()
  if (word === 'true' || word === '1') return ok(true)
  if (word === 'false' || word === '0') return ok(false)
  return bad(`must be true, false, 1 or 0, not ${shown(text)}`)
}

/** A whole number within [min, max], digits only (no unit, sign or fraction). */
export function readInteger(
  text: string,
  min: number,
  max: number,
  unit = '',
): Read<number> {
  const digits = text.trim()
  const value = /^\d{1,16}$/.test(digits) ? Number(digits) : NaN
  const what = `a whole number${unit ? ` of ${unit}` : ''}`
  if (!Number.isSafeInteger(value))
    return bad(`must be ${what}, not ${shown(text)}`)
  if (value < min || value > max)
    return bad(`must be ${what} from ${min} to ${max}, not ${value}`)
  return ok(value)
}

const TIME_UNITS: Readonly<Record<string, number>> = {
  '': 1,
  ms: 1,
  msec: 1,
  s: 1000,
  sec: 1000,
  m: 60_000,
  min: 60_000,
}

/**
 * Milliseconds from a number and an optional unit (`500`, `500ms`, `30s`, `1.5 min`), as
 * Electric's human-readable times: no unit means milliseconds, and fractions are cut to whole
 * milliseconds. At most `maxMs`.
 */
export function readDuration(text: string, maxMs: number): Read<number> {
  const match = /^\s*(\d{1,12}(?:\.\d{1,6})?)\s*([a-z]*)\s*$/.exec(text)
  const factor = match ? TIME_UNITS[match[2] ?? ''] : undefined
  if (!match || factor === undefined)
    return bad(
      `must be a time such as 500ms, 30s or 5min (units ms, msec, s, sec, m, min), not ${shown(text)}`,
    )
  const ms = Math.trunc(Number(match[1]) * factor)
  if (ms > maxMs) return bad(`must be at most ${maxMs / 60_000} minutes`)
  return ok(ms)
}

/**
 * A JSON object of whole numbers with only the keys of `defaults`; keys left out keep their
 * default. Bounded: the text, and each number to [1, max].
 */
export function readCounts<K extends string>(
  text: string,
  defaults: Readonly<Record<K, number>>,
  max: number,
): Read<Record<K, number>> {
  const keys = Object.keys(defaults) as K[]
  const form = `a JSON object such as ${JSON.stringify(defaults)}`
  if (text.length > 1024) return bad(`must be ${form}, at most 1024 characters`)
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return bad(`must be ${form}, not ${shown(text)}`)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return bad(`must be ${form}, not ${shown(text)}`)
  const value: Record<K, number> = { ...defaults }
  for (const [key, count] of Object.entries(parsed)) {
    if (!keys.includes(key as K))
      return bad(`knows only ${keys.join(' and ')}, not ${shown(key)}`)
    if (
      typeof count !== 'number' ||
      !Number.isSafeInteger(count) ||
      count < 1 ||
      count > max
    )
      return bad(`${key} must be a whole number from 1 to ${max}`)
    value[key as K] = count
  }
  return ok(value)
}

/** A value as a message quotes it: cut short, so a pasted secret is not echoed whole. */
function shown(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)
}
