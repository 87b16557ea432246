// What a column's type modifier (pg_attribute.atttypmod) adds to its `electric-schema` entry,
// under Electric's keys and in the cases Electric adds them (its Electric.Schema), so a client
// reads the same lengths, precisions and interval fields from either server. Including its
// edges: an unconstrained varbit says length -1, and a time or timestamp of precision 0, whose
// modifier is 0, falls through to the raw `type_mod`.

type Modifiers = Record<string, number | string>

const TIME_TYPES = new Set([
  'date',
  'time',
  'timetz',
  'timestamp',
  'timestamptz',
])

// Postgres's interval range bits (src/include/utils/datetime.h), in the order Electric names
// them: a range is its first and last unit.
const INTERVAL_UNITS: Array<[string, number]> = [
  ['YEAR', 1 << 2],
  ['MONTH', 1 << 1],
  ['DAY', 1 << 3],
  ['HOUR', 1 << 10],
  ['MINUTE', 1 << 11],
  ['SECOND', 1 << 12],
]
/** INTERVAL_FULL_RANGE: no fields were given. */
const ALL_FIELDS = 0x7fff

/** The high and low 16 bits of a 32-bit modifier, each as a signed number. */
const high16 = (n: number) => n >> 16
const low16 = (n: number) => (n << 16) >> 16

function intervalModifiers(typmod: number): Modifiers {
  const out: Modifiers = {}
  const range = high16(typmod)
  const units = INTERVAL_UNITS.filter(([, mask]) => (range & mask) !== 0)
  if (range !== ALL_FIELDS && units.length > 0) {
    const first = units[0]?.[0] ?? ''
    const last = units[units.length - 1]?.[0] ?? ''
    out.fields = units.length === 1 ? first : `${first} TO ${last}`
  }
  // INTERVAL_FULL_PRECISION (0xFFFF) reads as -1: no precision was given.
  const precision = low16(typmod)
  if (precision !== -1) out.precision = precision
  return out
}

/** `type` is the column's type name (an array's element type); `typmod` is -1 when none. */
export function typeModifiers(type: string, typmod: number): Modifiers {
  if (typmod > 0 && (type === 'varchar' || type === 'text'))
    return { max_length: typmod - 4 }
  if (typmod > 0 && type === 'bpchar') return { length: typmod - 4 }
  if (type === 'bit' || type === 'varbit') return { length: typmod }
  if (type === 'interval' && typmod > -1) return intervalModifiers(typmod)
  if (typmod > 0 && TIME_TYPES.has(type)) return { precision: typmod }
  if (type === 'numeric' && typmod > -1) {
    const packed = typmod - 4
    return { precision: high16(packed), scale: low16(packed) }
  }
  // A type Electric does not know the modifier of (an extension's): passed on as it is.
  if (typmod > -1) return { type_mod: typmod }
  return {}
}
