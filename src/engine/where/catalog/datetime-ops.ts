// Date and time arithmetic: date ± integer, date - date, date/timestamp[tz] ± interval,
// timestamp differences, date + time, time ± interval, interval ± interval, and interval
// scaled by a float8 (`*` either way round, `/`).
import type { Signature } from '../tree.ts'
import {
  addDays,
  dateAddTime,
  dateToTimestamp,
  subtractDates,
} from '../values/datetime.ts'
import {
  addInterval,
  addIntervals,
  negateInterval,
  subtractTimestamps,
  timeAddInterval,
  type Interval,
} from '../values/interval.ts'
import { divideInterval, multiplyInterval } from '../values/interval-adjust.ts'
import { binary, op, unary } from './sig.ts'

const plusInterval = (stamp: bigint, i: Interval) => addInterval(stamp, i)
const minusInterval = (stamp: bigint, i: Interval) =>
  addInterval(stamp, negateInterval(i))

function additions(): Signature[] {
  const out: Signature[] = [
    op(
      '+',
      ['date', 'int4'],
      'date',
      binary((d: number, n: number) => addDays(d, n)),
    ),
    op(
      '+',
      ['int4', 'date'],
      'date',
      binary((n: number, d: number) => addDays(d, n)),
    ),
    op(
      '+',
      ['date', 'interval'],
      'timestamp',
      binary((d: number, i: Interval) => plusInterval(dateToTimestamp(d), i)),
    ),
    op(
      '+',
      ['interval', 'date'],
      'timestamp',
      binary((i: Interval, d: number) => plusInterval(dateToTimestamp(d), i)),
    ),
    op(
      '+',
      ['date', 'time'],
      'timestamp',
      binary((d: number, t: number) => dateAddTime(d, t)),
    ),
    op(
      '+',
      ['time', 'date'],
      'timestamp',
      binary((t: number, d: number) => dateAddTime(d, t)),
    ),
    op(
      '+',
      ['time', 'interval'],
      'time',
      binary((t: number, i: Interval) => timeAddInterval(t, i)),
    ),
    op(
      '+',
      ['interval', 'time'],
      'time',
      binary((i: Interval, t: number) => timeAddInterval(t, i)),
    ),
    op('+', ['interval', 'interval'], 'interval', binary(addIntervals)),
  ]
  for (const t of ['timestamp', 'timestamptz']) {
    out.push(op('+', [t, 'interval'], t, binary(plusInterval)))
    out.push(
      op(
        '+',
        ['interval', t],
        t,
        binary((i: Interval, s: bigint) => plusInterval(s, i)),
      ),
    )
  }
  return out
}

function subtractions(): Signature[] {
  const out: Signature[] = [
    op(
      '-',
      ['date', 'int4'],
      'date',
      binary((d: number, n: number) => addDays(d, -n)),
    ),
    op('-', ['date', 'date'], 'int4', binary(subtractDates)),
    op(
      '-',
      ['date', 'interval'],
      'timestamp',
      binary((d: number, i: Interval) => minusInterval(dateToTimestamp(d), i)),
    ),
    op(
      '-',
      ['time', 'interval'],
      'time',
      binary((t: number, i: Interval) => timeAddInterval(t, negateInterval(i))),
    ),
    op(
      '-',
      ['time', 'time'],
      'interval',
      binary((a: number, b: number) => ({
        months: 0,
        days: 0,
        usecs: BigInt(a - b),
      })),
    ),
    op(
      '-',
      ['interval', 'interval'],
      'interval',
      binary((a: Interval, b: Interval) => addIntervals(a, negateInterval(b))),
    ),
  ]
  for (const t of ['timestamp', 'timestamptz']) {
    out.push(op('-', [t, 'interval'], t, binary(minusInterval)))
    out.push(op('-', [t, t], 'interval', binary(subtractTimestamps)))
  }
  return out
}

export function datetimeOperators(name: string, arity: number): Signature[] {
  if (arity === 1)
    return name === '-'
      ? [op('-', ['interval'], 'interval', unary(negateInterval))]
      : []
  if (name === '+') return additions()
  if (name === '-') return subtractions()
  if (name === '*')
    return [
      op('*', ['interval', 'float8'], 'interval', binary(multiplyInterval)),
      op(
        '*',
        ['float8', 'interval'],
        'interval',
        binary((f: number, i: Interval) => multiplyInterval(i, f)),
      ),
    ]
  if (name === '/')
    return [op('/', ['interval', 'float8'], 'interval', binary(divideInterval))]
  return []
}
