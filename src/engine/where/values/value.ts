// The evaluator's runtime values, one JS representation per Postgres type: booleans, numbers
// (int2/int4/float), bigints (int8, timestamps), strings (text-likes, uuid, enums, json), and
// objects for numeric, interval, arrays and jsonb. SQL NULL is `null`.
import type { Jsonb } from './jsonb.ts'
import type { Interval } from './interval.ts'
import type { Decimal } from './numeric.ts'

/** An array in Postgres's model: dimensions, lower bounds and the elements in row-major order. */
export type PgArray = { dims: number[]; lbounds: number[]; items: Datum[] }

export type Value =
  boolean | number | bigint | string | Decimal | Interval | PgArray | Jsonb

export type Datum = Value | null
