// The value layer of the evaluator: Postgres text in, the same text out, and the arithmetic
// whose exact rules matter (numeric division scale, float printing, interval fields).
import { describe, expect, it } from 'vitest'
import { parseArray, formatArray } from '../../src/engine/where/values/array.ts'
import { formatFloat, parseFloat } from '../../src/engine/where/values/float.ts'
import { parseInterval } from '../../src/engine/where/values/interval-input.ts'
import { formatInterval } from '../../src/engine/where/values/interval.ts'
import { formatValue, tryParseValue } from '../../src/engine/where/values/io.ts'
import {
  formatJsonb,
  jsonbEqual,
  parseJsonb,
} from '../../src/engine/where/values/jsonb.ts'
import {
  divideNumeric,
  formatNumeric,
  parseNumeric,
} from '../../src/engine/where/values/numeric.ts'
import { compareText, likeMatcher } from '../../src/engine/where/values/text.ts'

const numeric = (s: string) => {
  const d = parseNumeric(s)
  if (!d) throw new Error(`bad numeric ${s}`)
  return d
}

describe('numeric', () => {
  it.each([
    ['1.50', '1.50'],
    ['-0.0', '0.0'],
    ['.5', '0.5'],
    ['1e2', '100'],
    ['1.5E-3', '0.0015'],
    [' 12 ', '12'],
    ['nan', 'NaN'],
    ['-inf', '-Infinity'],
  ])('reads %j as %s', (text, printed) => {
    expect(formatNumeric(numeric(text))).toBe(printed)
  })

  it.each(['', '1e', 'e1', '1_000', '0x10', '1..2', '1e1000000'])(
    'refuses %j',
    (text) => {
      expect(parseNumeric(text)).toBeUndefined()
    },
  )

  it.each([
    ['1', '3', '0.33333333333333333333'],
    ['10', '4', '2.5000000000000000'],
    ['1.5', '7', '0.21428571428571428571'],
    ['100000000000000000000', '3', '33333333333333333333'],
    ['-2', '3', '-0.66666666666666666667'],
    ['1.000000000000000000000001', '1', '1.000000000000000000000001'],
  ])('divides %s / %s with select_div_scale', (a, b, quotient) => {
    expect(formatNumeric(divideNumeric(numeric(a), numeric(b)))).toBe(quotient)
  })
})

describe('float', () => {
  it.each([
    ['float8', 1e15, '1e+15'],
    ['float8', 123456789012345, '123456789012345'],
    ['float8', 0.0001, '0.0001'],
    ['float8', 0.00001234, '1.234e-05'],
    ['float8', -0, '-0'],
    ['float8', 0.1 + 0.2, '0.30000000000000004'],
    ['float4', Math.fround(0.1), '0.1'],
    ['float4', 1e6, '1e+06'],
    ['float4', 123456, '123456'],
    ['float8', NaN, 'NaN'],
  ] as const)('prints %s %d as %s', (kind, value, text) => {
    expect(formatFloat(kind, value)).toBe(text)
  })

  it('refuses what Postgres reports out of range', () => {
    expect(parseFloat('float8', '1e309')).toBeUndefined()
    expect(parseFloat('float8', '1e-400')).toBeUndefined()
    expect(parseFloat('float4', '3.5e38')).toBeUndefined()
    expect(parseFloat('float8', '4.9e-324')).toBe(5e-324)
  })
})

describe('arrays', () => {
  const ints = (s: string) => tryParseValue('int4', s)
  it.each([
    ['{}', '{}'],
    ['{1,2,NULL}', '{1,2,NULL}'],
    ['{ 1 , 2 }', '{1,2}'],
    ['{{1,2},{3,4}}', '{{1,2},{3,4}}'],
    ['[0:1]={1,2}', '[0:1]={1,2}'],
  ])('reads %s', (text, printed) => {
    const a = parseArray(text, ints)
    if (!a) throw new Error('refused')
    expect(formatArray(a, String)).toBe(printed)
  })

  it.each(['{', '{1,{2}}', '{{1},{2,3}}', '[1:3]={1,2}', '{1}x', '{{}}'])(
    'refuses %s',
    (text) => {
      expect(parseArray(text, ints)).toBeUndefined()
    },
  )

  it('quotes and escapes text elements as array_out does', () => {
    const text = '{"a b","",NULL,"NULL","x\\"y","a\\\\b",plain,é}'
    const a = tryParseValue('text[]', text)
    if (a === undefined) throw new Error('refused')
    expect(formatValue('text[]', a)).toBe(text)
  })
})

describe('interval', () => {
  it.each([
    ['1 day', 'P1D'],
    ['1 mon -1 days', 'P1M-1D'],
    ['-1 day -02:00:00', 'P-1DT-2H'],
    ['1.5 hours', 'PT1H30M'],
    ['1.5 days', 'P1DT12H'],
    ['0.375 years', 'P4M'],
    ['P1Y2M3DT4H5M6.5S', 'P1Y2M3DT4H5M6.5S'],
    ['PT-0.5S', 'PT-0.5S'],
    ['0', 'PT0S'],
    ['infinity', 'infinity'],
  ])('reads %j as %s', (text, printed) => {
    const i = parseInterval(text)
    if (!i) throw new Error('refused')
    expect(formatInterval(i)).toBe(printed)
  })

  it.each([
    '1 day ago',
    '@ 1 day',
    'P1.5D',
    '1 fortnight',
    '1.0000001 seconds',
  ])('refuses %j', (text) => expect(parseInterval(text)).toBeUndefined())
})

describe('dates and times', () => {
  it.each([
    ['date', '2024-02-29', '2024-02-29'],
    ['date', '0001-01-01 BC', '0001-01-01 BC'],
    ['date', 'infinity', 'infinity'],
    ['timestamptz', '2024-01-02 03:04:05.123+00', '2024-01-02 03:04:05.123+00'],
    ['timestamptz', '2024-01-02T05:04:05.5+02:00', '2024-01-02 03:04:05.5+00'],
    ['timestamp', '2024-01-02 03:04:05+05', '2024-01-02 03:04:05'],
    ['timestamp', '2024-01-01 24:00', '2024-01-02 00:00:00'],
    ['time', '23:59:59.999999', '23:59:59.999999'],
  ])('%s %j reads as %s', (type, text, printed) => {
    const v = tryParseValue(type, text)
    if (v === undefined) throw new Error('refused')
    expect(formatValue(type, v)).toBe(printed)
  })

  it.each([
    ['date', '2023-02-29'],
    ['date', 'Jan 1 2024'],
    ['date', '0000-01-01'],
    ['timestamptz', 'now'],
    ['timestamptz', '2024-01-01 00:00:00.1234567'],
    ['time', '24:00:01'],
  ])('refuses %s %j', (type, text) => {
    expect(tryParseValue(type, text)).toBeUndefined()
  })
})

describe('jsonb', () => {
  it('prints objects canonically: keys by length then bytes, last duplicate wins', () => {
    const j = parseJsonb('{"bb": 1, "a": [1.50, 1e2, "\\u0041\\n"], "bb": 2}')
    if (!j) throw new Error('refused')
    expect(formatJsonb(j)).toBe('{"a": [1.50, 100, "A\\n"], "bb": 2}')
  })

  it('compares numbers by value', () => {
    const a = parseJsonb('[1, {"x": 2.0}]')
    const b = parseJsonb('[1.00, {"x": 2}]')
    if (!a || !b) throw new Error('refused')
    expect(jsonbEqual(a, b)).toBe(true)
  })

  it.each(['{"a":}', '[1,]', '"\\u0000"', 'nul', '01'])(
    'refuses %j',
    (text) => {
      expect(parseJsonb(text)).toBeUndefined()
    },
  )
})

describe('text', () => {
  it('orders by code point, not UTF-16 unit', () => {
    expect(compareText('\uFFFD', '😀')).toBe(-1)
    expect(compareText('a', 'B')).toBe(1)
    expect(compareText('ab', 'a')).toBe(1)
  })

  it.each([
    ['a%', 'abc', true],
    ['%b%', 'abc', true],
    ['a_c', 'abc', true],
    ['a\\%', 'a%', true],
    ['a\\%', 'ab', false],
    ['%%%c', 'abc', true],
    ['_', '😀', true],
    ['', '', true],
    ['%a%b', 'aXbXa', false],
  ])('LIKE %j on %j is %s', (pattern, s, expected) => {
    expect(likeMatcher(pattern, false)(s)).toBe(expected)
  })

  it('refuses a pattern ending with the escape', () => {
    expect(() => likeMatcher('a\\', false)).toThrow(
      'LIKE pattern must not end with escape character',
    )
  })
})
