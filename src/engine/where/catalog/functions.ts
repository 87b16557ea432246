// The functions a where clause may call. Anything else is refused, with a clearer message for
// the ones people try most: volatile ones (now(), random()) and aggregates.
import { charge } from '../budget.ts'
import { elementOf, UNKNOWN, type PgType } from '../pg-types.ts'
import type { Signature } from '../tree.ts'
import { formatValue } from '../values/io.ts'
import { asciiLower, asciiUpper } from '../values/text.ts'
import type { Datum, PgArray, Value } from '../values/value.ts'
import {
  justifyDays,
  justifyHours,
  justifyInterval,
} from '../values/interval-adjust.ts'
import { arrayFunctions } from './array-ops.ts'
import { fn, unary } from './sig.ts'
import { like } from './text-ops.ts'
import { zoneFunctions } from './zone-functions.ts'

export const VOLATILE = new Set([
  'now',
  'random',
  'random_normal',
  'clock_timestamp',
  'statement_timestamp',
  'transaction_timestamp',
  'timeofday',
  'gen_random_uuid',
  'uuidv4',
  'uuidv7',
  'uuid_generate_v1',
  'uuid_generate_v4',
  'nextval',
  'currval',
  'lastval',
  'setval',
  'setseed',
  'txid_current',
  'pg_current_xact_id',
  'current_setting',
  'age',
  'localtime',
  'localtimestamp',
  'current_date',
  'current_time',
  'current_timestamp',
  'current_user',
  'session_user',
  'user',
  'pg_backend_pid',
  'inet_client_addr',
])

export const AGGREGATES = new Set([
  'count',
  'sum',
  'avg',
  'min',
  'max',
  'array_agg',
  'string_agg',
  'bool_and',
  'bool_or',
  'every',
  'json_agg',
  'jsonb_agg',
  'json_object_agg',
  'jsonb_object_agg',
  'stddev',
  'variance',
  'bit_and',
  'bit_or',
  'percentile_cont',
  'percentile_disc',
  'mode',
  'rank',
  'dense_rank',
  'row_number',
])

/** concat(VARIADIC "any"): each argument by its output function, NULLs skipped. */
function concat(argTypes: PgType[]): Signature {
  const types = argTypes.map((t) => (t === UNKNOWN ? 'text' : t))
  const impl = (args: Datum[]): Datum => {
    const parts = args.map((v, i) =>
      v === null ? '' : formatValue(types[i] as PgType, v),
    )
    charge(parts.reduce((n, s) => n + s.length, 0))
    return parts.join('')
  }
  return fn('concat', types, 'text', impl, { strict: false })
}

// The output functions pg_proc has (Postgres spells some with an underscore): each returns
// its argument's text as cstring.
const OUTPUT_FUNCTIONS: Record<string, PgType> = {
  boolout: 'bool',
  int2out: 'int2',
  int4out: 'int4',
  int8out: 'int8',
  float4out: 'float4',
  float8out: 'float8',
  numeric_out: 'numeric',
  textout: 'text',
  varcharout: 'varchar',
  bpcharout: 'bpchar',
  nameout: 'name',
  uuid_out: 'uuid',
  date_out: 'date',
  time_out: 'time',
  timestamp_out: 'timestamp',
  timestamptz_out: 'timestamptz',
  interval_out: 'interval',
}

function outputFunction(name: string): Signature[] | undefined {
  if (!Object.hasOwn(OUTPUT_FUNCTIONS, name)) return undefined
  const type = OUTPUT_FUNCTIONS[name] as PgType
  const out = (args: Datum[]): Datum => formatValue(type, args[0] as Value)
  return [fn(name, [type], 'cstring', out)]
}

/** concat(VARIADIC array): the elements by their output function, NULLs skipped. */
export function concatVariadic(arrayType: PgType): Signature {
  const element = elementOf(arrayType)
  const impl = (args: Datum[]): Datum => {
    const parts = (args[0] as PgArray).items.map((v) =>
      v === null ? '' : formatValue(element, v),
    )
    charge(parts.reduce((n, s) => n + s.length, parts.length))
    return parts.join('')
  }
  const sig = fn('concat', [arrayType], 'text', impl)
  return { ...sig, sql: { ...sig.sql, variadic: true } }
}

/** Candidates for a supported function, or undefined when the name is not one. */
export function functionCandidates(
  name: string,
  argTypes: PgType[],
): Signature[] | undefined {
  switch (name) {
    case 'lower':
      return [
        fn('lower', ['text'], 'text', unary(asciiLower), { collateC: true }),
      ]
    case 'upper':
      return [
        fn('upper', ['text'], 'text', unary(asciiUpper), { collateC: true }),
      ]
    case 'concat':
      return argTypes.length > 0 ? [concat(argTypes)] : []
    // like(text, text) and like(name, text) are pg_proc's (no ilike(): ILIKE has no function).
    case 'like':
    case 'notlike':
      return (['text', 'name'] as const).map((t) =>
        fn(name, [t, 'text'], 'bool', like(false, name === 'notlike')),
      )
    case 'timezone':
      return zoneFunctions()
    case 'justify_days':
      return [fn(name, ['interval'], 'interval', unary(justifyDays))]
    case 'justify_hours':
      return [fn(name, ['interval'], 'interval', unary(justifyHours))]
    case 'justify_interval':
      return [fn(name, ['interval'], 'interval', unary(justifyInterval))]
    case 'array_cat':
    case 'array_append':
    case 'array_prepend':
    case 'array_ndims':
      return arrayFunctions(name, argTypes)
  }
  return Object.hasOwn(OUTPUT_FUNCTIONS, name)
    ? outputFunction(name)
    : undefined
}
