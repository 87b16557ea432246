// The electric-schema keys a column's type modifier gives, as Electric gives them
// (shapes/type-modifiers.ts), from modifiers as Postgres stores them.
import { describe, expect, it } from 'vitest'
import { typeModifiers } from '../../src/engine/shapes/type-modifiers.ts'

/** numeric(p, s)'s modifier, as Postgres packs it (negative scales included). */
const numeric = (p: number, s: number) => ((p << 16) | (s & 0xffff)) + 4

describe('typeModifiers', () => {
  it('says nothing for a type without a modifier', () => {
    for (const type of [
      'text',
      'varchar',
      'bpchar',
      'numeric',
      'timestamptz',
      'interval',
      'int4',
    ])
      expect(typeModifiers(type, -1)).toEqual({})
  })

  it('names lengths: max_length for varchar, length for bpchar and bit types', () => {
    expect(typeModifiers('varchar', 14)).toEqual({ max_length: 10 })
    expect(typeModifiers('bpchar', 5)).toEqual({ length: 1 })
    expect(typeModifiers('bit', 5)).toEqual({ length: 5 })
    expect(typeModifiers('varbit', -1)).toEqual({ length: -1 })
  })

  it('splits numeric into precision and scale, a negative scale too', () => {
    expect(typeModifiers('numeric', numeric(10, 2))).toEqual({
      precision: 10,
      scale: 2,
    })
    expect(typeModifiers('numeric', numeric(5, -3))).toEqual({
      precision: 5,
      scale: -3,
    })
  })

  it('reads interval fields and precision from the range and precision halves', () => {
    const interval = (range: number, precision: number) =>
      (range << 16) | (precision & 0xffff)
    const DAY = 1 << 3
    const HOUR = 1 << 10
    const MINUTE = 1 << 11
    const SECOND = 1 << 12
    expect(typeModifiers('interval', interval(0x7fff, 3))).toEqual({
      precision: 3,
    })
    expect(
      typeModifiers('interval', interval(DAY | HOUR | MINUTE | SECOND, 0xffff)),
    ).toEqual({
      fields: 'DAY TO SECOND',
    })
    expect(typeModifiers('interval', interval(HOUR, 0xffff))).toEqual({
      fields: 'HOUR',
    })
  })

  it('gives time precisions above 0, and any other modifier raw', () => {
    expect(typeModifiers('timestamptz', 3)).toEqual({ precision: 3 })
    expect(typeModifiers('time', 0)).toEqual({ type_mod: 0 })
    expect(typeModifiers('geometry', 1107460)).toEqual({ type_mod: 1107460 })
  })
})
