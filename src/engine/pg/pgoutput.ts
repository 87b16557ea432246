// Decoder for the pgoutput logical replication protocol, version 1: one XLogData payload in,
// one plain message out. Assembling messages into transactions is replication/assembler.ts's job.
import { ByteReader } from './byte-reader.ts'
import { fromPgTimestamp } from './pg-time.ts'
import type { Lsn } from './lsn.ts'

type RelationColumn = {
  name: string
  typeOid: number
  typeMod: number
  /** Part of the replica identity (with REPLICA IDENTITY FULL: every column). */
  isKey: boolean
}

export type Relation = {
  id: number
  schema: string
  name: string
  /** 'd' default, 'n' nothing, 'f' full, 'i' index */
  replicaIdentity: string
  columns: RelationColumn[]
}

/** A column the new tuple left out because its TOASTed value did not change. */
export const unchangedToast: unique symbol = Symbol('unchanged TOAST value')

/** Text output of each column in relation order; SQL NULL as null. */
type TupleValue = string | null | typeof unchangedToast
export type TupleData = TupleValue[]

/** `key`: only replica-identity columns carry values (others are null); `full`: the whole row. */
export type OldTuple = { kind: 'key' | 'full'; tuple: TupleData }

export type PgOutputMessage =
  | { tag: 'begin'; finalLsn: Lsn; commitTime: Date; xid: number }
  | {
      tag: 'commit'
      flags: number
      commitLsn: Lsn
      endLsn: Lsn
      commitTime: Date
    }
  | { tag: 'origin'; originLsn: Lsn; name: string }
  | { tag: 'relation'; relation: Relation }
  | { tag: 'type'; typeOid: number; schema: string; name: string }
  | { tag: 'insert'; relationId: number; newTuple: TupleData }
  | {
      tag: 'update'
      relationId: number
      old: OldTuple | null
      newTuple: TupleData
    }
  | { tag: 'delete'; relationId: number; old: OldTuple }
  | {
      tag: 'truncate'
      relationIds: number[]
      cascade: boolean
      restartIdentity: boolean
    }
  | {
      tag: 'message'
      transactional: boolean
      lsn: Lsn
      prefix: string
      content: Buffer
    }

export function decodePgOutput(data: Buffer): PgOutputMessage {
  const reader = new ByteReader(data)
  const tag = reader.char()
  switch (tag) {
    case 'B':
      return {
        tag: 'begin',
        finalLsn: reader.uint64(),
        commitTime: fromPgTimestamp(reader.int64()),
        xid: reader.uint32(),
      }
    case 'C':
      return {
        tag: 'commit',
        flags: reader.uint8(),
        commitLsn: reader.uint64(),
        endLsn: reader.uint64(),
        commitTime: fromPgTimestamp(reader.int64()),
      }
    case 'O':
      return {
        tag: 'origin',
        originLsn: reader.uint64(),
        name: reader.cstring(),
      }
    case 'R':
      return { tag: 'relation', relation: readRelation(reader) }
    case 'Y':
      return {
        tag: 'type',
        typeOid: reader.uint32(),
        schema: reader.cstring(),
        name: reader.cstring(),
      }
    case 'I':
      return readInsert(reader)
    case 'U':
      return readUpdate(reader)
    case 'D':
      return readDelete(reader)
    case 'T':
      return readTruncate(reader)
    case 'M':
      return readMessage(reader)
    default:
      throw new Error(`unknown pgoutput message "${tag}"`)
  }
}

function readRelation(reader: ByteReader): Relation {
  const id = reader.uint32()
  // pgoutput sends an empty namespace for pg_catalog.
  const schema = reader.cstring() || 'pg_catalog'
  const name = reader.cstring()
  const replicaIdentity = reader.char()
  const count = reader.int16()
  const columns = []
  for (let i = 0; i < count; i++) {
    const flags = reader.uint8()
    columns.push({
      isKey: (flags & 1) === 1,
      name: reader.cstring(),
      typeOid: reader.uint32(),
      typeMod: reader.int32(),
    })
  }
  return { id, schema, name, replicaIdentity, columns }
}

function readInsert(reader: ByteReader): PgOutputMessage {
  const relationId = reader.uint32()
  expectTag(reader.char(), 'N', 'insert')
  return { tag: 'insert', relationId, newTuple: readTuple(reader) }
}

function readUpdate(reader: ByteReader): PgOutputMessage {
  const relationId = reader.uint32()
  let next = reader.char()
  let old: OldTuple | null = null
  if (next === 'K' || next === 'O') {
    old = { kind: next === 'K' ? 'key' : 'full', tuple: readTuple(reader) }
    next = reader.char()
  }
  expectTag(next, 'N', 'update')
  return { tag: 'update', relationId, old, newTuple: readTuple(reader) }
}

function readDelete(reader: ByteReader): PgOutputMessage {
  const relationId = reader.uint32()
  const kind = reader.char()
  if (kind !== 'K' && kind !== 'O')
    throw new Error(`delete message: expected K or O, got "${kind}"`)
  const old: OldTuple = {
    kind: kind === 'K' ? 'key' : 'full',
    tuple: readTuple(reader),
  }
  return { tag: 'delete', relationId, old }
}

function readTruncate(reader: ByteReader): PgOutputMessage {
  const count = reader.int32()
  const options = reader.uint8()
  const relationIds: number[] = []
  for (let i = 0; i < count; i++) relationIds.push(reader.uint32())
  return {
    tag: 'truncate',
    relationIds,
    cascade: (options & 1) === 1,
    restartIdentity: (options & 2) === 2,
  }
}

function readMessage(reader: ByteReader): PgOutputMessage {
  const transactional = (reader.uint8() & 1) === 1
  const lsn = reader.uint64()
  const prefix = reader.cstring()
  const content = reader.bytes(reader.int32())
  return { tag: 'message', transactional, lsn, prefix, content }
}

function readTuple(reader: ByteReader): TupleData {
  const count = reader.int16()
  const values: TupleData = []
  for (let i = 0; i < count; i++) {
    const kind = reader.char()
    if (kind === 'n') values.push(null)
    else if (kind === 'u') values.push(unchangedToast)
    else if (kind === 't') values.push(reader.utf8(reader.int32()))
    // 'b' only appears when the binary option is requested, which we never do.
    else throw new Error(`unsupported tuple value kind "${kind}"`)
  }
  return values
}

function expectTag(actual: string, expected: string, message: string): void {
  if (actual !== expected)
    throw new Error(
      `${message} message: expected "${expected}", got "${actual}"`,
    )
}
