// The tab's array types (store-client.ts) convert as PGlite's own do: the same query, read in
// one message, installed on the tab's handle.
import { PGlite, types } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ARRAY_TYPES,
  installArrayTypes,
} from '../../src/app/db/tab/store-client.ts'

describe('the store client array types', () => {
  let pg: PGlite
  // PGlite's start takes seconds on a busy machine.
  beforeAll(async () => {
    pg = await PGlite.create()
    await pg.exec('create table t (id int primary key, txids bigint[])')
  }, 120_000)
  afterAll(() => pg.close())

  const fresh = () => ({
    parsers: { ...types.parsers },
    serializers: { ...types.serializers },
  })

  it('covers every array type PGlite itself knows, and the tables of the store', async () => {
    const converters = fresh()
    installArrayTypes(converters, (await pg.query(ARRAY_TYPES)).rows as never)
    for (const oid of Object.keys(pg.parsers))
      expect(converters.parsers, `parser ${oid}`).toHaveProperty(oid)
    for (const oid of Object.keys(pg.serializers))
      expect(converters.serializers, `serializer ${oid}`).toHaveProperty(oid)
  })

  it('parses and serializes arrays exactly as PGlite does', async () => {
    const converters = fresh()
    installArrayTypes(converters, (await pg.query(ARRAY_TYPES)).rows as never)
    const cases: [oid: number, text: string, value: unknown[]][] = [
      [1016, '{1,9007199254740993}', [1n, 2n]], // bigint[]
      [1009, '{a,"b c",NULL}', ['a', 'b c']], // text[]
      [2951, '{00000000-0000-4000-8000-000000000001}', []], // uuid[]
      [1000, '{t,f}', [true, false]], // boolean[]
    ]
    for (const [oid, text, value] of cases) {
      expect(converters.parsers[oid]!(text, oid)).toEqual(
        pg.parsers[oid]!(text, oid),
      )
      expect(converters.serializers[oid]!(value)).toBe(
        pg.serializers[oid]!(value),
      )
    }
    const { rows } = await pg.query<{ txids: unknown }>(
      `select '{3,9007199254740993}'::bigint[] as txids`,
    )
    expect(rows[0]!.txids).toEqual(
      converters.parsers[1016]!('{3,9007199254740993}', 1016),
    )
  })
})
