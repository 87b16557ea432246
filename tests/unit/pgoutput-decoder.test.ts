// The pgoutput v1 decoder on hand-built messages, one per message kind and tuple value kind.
import { describe, expect, it } from 'vitest'
import { decodePgOutput, unchangedToast } from '../../src/engine/pg/pgoutput.ts'

/** Writes protocol fields big-endian, as Postgres sends them. */
class Message {
  private parts: Buffer[] = []

  constructor(tag: string) {
    this.char(tag)
  }
  char(value: string) {
    return this.push(Buffer.from(value, 'latin1'))
  }
  int8(value: number) {
    const b = Buffer.alloc(1)
    b.writeUInt8(value)
    return this.push(b)
  }
  int16(value: number) {
    const b = Buffer.alloc(2)
    b.writeInt16BE(value)
    return this.push(b)
  }
  /** Unsigned (OIDs, xids) or, when negative, signed (type modifiers). */
  int32(value: number) {
    const b = Buffer.alloc(4)
    if (value < 0) b.writeInt32BE(value)
    else b.writeUInt32BE(value)
    return this.push(b)
  }
  int64(value: bigint) {
    const b = Buffer.alloc(8)
    b.writeBigInt64BE(value)
    return this.push(b)
  }
  string(value: string) {
    return this.push(Buffer.from(`${value}\0`, 'utf8'))
  }
  /** TupleData: null -> 'n', undefined -> 'u' (unchanged TOAST), text -> 't'. */
  tuple(values: (string | null | undefined)[]) {
    this.int16(values.length)
    for (const value of values) {
      if (value === null) this.char('n')
      else if (value === undefined) this.char('u')
      else {
        const bytes = Buffer.from(value, 'utf8')
        this.char('t').int32(bytes.length).push(bytes)
      }
    }
    return this
  }
  build(): Buffer {
    return Buffer.concat(this.parts)
  }
  private push(part: Buffer) {
    this.parts.push(part)
    return this
  }
}

// 2024-01-01T00:00:00.123Z in microseconds since 2000-01-01.
const TIME = 757382400123000n
const DATE = new Date('2024-01-01T00:00:00.123Z')

describe('decodePgOutput', () => {
  it('decodes Begin and Commit', () => {
    const begin = new Message('B')
      .int64(0x16b374d848n)
      .int64(TIME)
      .int32(0xfffffffe)
    expect(decodePgOutput(begin.build())).toEqual({
      tag: 'begin',
      finalLsn: 0x16b374d848n,
      commitTime: DATE,
      xid: 0xfffffffe,
    })
    const commit = new Message('C').int8(0).int64(100n).int64(180n).int64(TIME)
    expect(decodePgOutput(commit.build())).toEqual({
      tag: 'commit',
      flags: 0,
      commitLsn: 100n,
      endLsn: 180n,
      commitTime: DATE,
    })
  })

  it('decodes Relation with key flags, and pg_catalog for an empty namespace', () => {
    const relation = new Message('R')
      .int32(16384)
      .string('public')
      .string('Ünï "items"')
      .char('f')
      .int16(2)
      .int8(1)
      .string('id')
      .int32(20)
      .int32(-1)
      .int8(0)
      .string('title')
      .int32(1043)
      .int32(104)
    expect(decodePgOutput(relation.build())).toEqual({
      tag: 'relation',
      relation: {
        id: 16384,
        schema: 'public',
        name: 'Ünï "items"',
        replicaIdentity: 'f',
        columns: [
          { name: 'id', typeOid: 20, typeMod: -1, isKey: true },
          { name: 'title', typeOid: 1043, typeMod: 104, isKey: false },
        ],
      },
    })
    const catalog = new Message('R')
      .int32(1)
      .string('')
      .string('t')
      .char('d')
      .int16(0)
    expect(decodePgOutput(catalog.build())).toMatchObject({
      relation: { schema: 'pg_catalog', columns: [] },
    })
  })

  it('decodes Type and Origin', () => {
    const type = new Message('Y').int32(70000).string('public').string('mood')
    expect(decodePgOutput(type.build())).toEqual({
      tag: 'type',
      typeOid: 70000,
      schema: 'public',
      name: 'mood',
    })
    const origin = new Message('O').int64(42n).string('upstream')
    expect(decodePgOutput(origin.build())).toEqual({
      tag: 'origin',
      originLsn: 42n,
      name: 'upstream',
    })
  })

  it('decodes Insert with every tuple value kind', () => {
    const insert = new Message('I')
      .int32(16384)
      .char('N')
      .tuple(['1', null, undefined, '', 'Grüße 👋'])
    expect(decodePgOutput(insert.build())).toEqual({
      tag: 'insert',
      relationId: 16384,
      newTuple: ['1', null, unchangedToast, '', 'Grüße 👋'],
    })
  })

  it('decodes Update without, with a key and with a full old tuple', () => {
    const plain = new Message('U').int32(7).char('N').tuple(['1', undefined])
    expect(decodePgOutput(plain.build())).toEqual({
      tag: 'update',
      relationId: 7,
      old: null,
      newTuple: ['1', unchangedToast],
    })
    const keyed = new Message('U')
      .int32(7)
      .char('K')
      .tuple(['1', null])
      .char('N')
      .tuple(['2', 'x'])
    expect(decodePgOutput(keyed.build())).toMatchObject({
      old: { kind: 'key', tuple: ['1', null] },
      newTuple: ['2', 'x'],
    })
    const full = new Message('U')
      .int32(7)
      .char('O')
      .tuple(['1', 'a'])
      .char('N')
      .tuple(['1', 'b'])
    expect(decodePgOutput(full.build())).toMatchObject({
      old: { kind: 'full', tuple: ['1', 'a'] },
    })
  })

  it('decodes Delete with a key or a full old tuple', () => {
    const keyed = new Message('D').int32(7).char('K').tuple(['1', null])
    expect(decodePgOutput(keyed.build())).toEqual({
      tag: 'delete',
      relationId: 7,
      old: { kind: 'key', tuple: ['1', null] },
    })
    const full = new Message('D').int32(7).char('O').tuple(['1', 'a'])
    expect(decodePgOutput(full.build())).toMatchObject({
      old: { kind: 'full', tuple: ['1', 'a'] },
    })
  })

  it('decodes Truncate with its options', () => {
    const truncate = new Message('T').int32(2).int8(3).int32(7).int32(8)
    expect(decodePgOutput(truncate.build())).toEqual({
      tag: 'truncate',
      relationIds: [7, 8],
      cascade: true,
      restartIdentity: true,
    })
    const plain = new Message('T').int32(1).int8(0).int32(7)
    expect(decodePgOutput(plain.build())).toMatchObject({
      cascade: false,
      restartIdentity: false,
    })
  })

  it('decodes a logical decoding Message so it can be ignored', () => {
    const message = new Message('M')
      .int8(1)
      .int64(99n)
      .string('app')
      .int32(3)
      .char('abc')
    expect(decodePgOutput(message.build())).toEqual({
      tag: 'message',
      transactional: true,
      lsn: 99n,
      prefix: 'app',
      content: Buffer.from('abc'),
    })
  })

  it('rejects unknown, truncated and malformed messages', () => {
    expect(() => decodePgOutput(Buffer.from('Z'))).toThrow(
      'unknown pgoutput message "Z"',
    )
    const short = new Message('B').int64(1n).build().subarray(0, 5)
    expect(() => decodePgOutput(short)).toThrow('truncated')
    const binary = new Message('I')
      .int32(1)
      .char('N')
      .int16(1)
      .char('b')
      .int32(0)
    expect(() => decodePgOutput(binary.build())).toThrow(
      'unsupported tuple value kind "b"',
    )
    const noNew = new Message('I').int32(1).char('X').tuple([])
    expect(() => decodePgOutput(noNew.build())).toThrow('expected "N"')
    const longText = new Message('I')
      .int32(1)
      .char('N')
      .int16(1)
      .char('t')
      .int32(10)
      .char('abc')
    expect(() => decodePgOutput(longText.build())).toThrow('truncated')
  })
})
