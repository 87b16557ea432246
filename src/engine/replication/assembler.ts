// Turns the ordered pgoutput message stream into committed transactions: keeps the relation
// cache, maps tuples to rows by column name and fills unchanged TOAST values from old rows.
// A transaction past the spill limit goes on in a file rather than in memory (spill.ts).
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import {
  unchangedToast,
  type OldTuple,
  type PgOutputMessage,
  type TupleData,
} from '../pg/pgoutput.ts'
import { SpillWriter, type SpillLimit } from './spill.ts'
import type { Change, Lsn, Relation, Row, Transaction } from './types.ts'

export type AssemblerEvent =
  | { kind: 'transaction'; transaction: Transaction }
  /** Committed with nothing published in it: only its position matters. */
  | { kind: 'emptyTransaction'; endLsn: Lsn }
  | { kind: 'relationChanged'; previous: Relation; next: Relation }

type Open = {
  xid: number
  changes: Change[]
  /** Replication bytes of the changes held in `changes`. */
  bytes: number
  spill: SpillWriter | null
}

/** Where transactions past the limit spill; none: every transaction stays in memory. */
export type SpillOptions = { dir: string; limit: SpillLimit }

export class TransactionAssembler {
  private open: Open | null = null

  /** Pass the same map across reconnects to notice schema changes made while disconnected. */
  constructor(
    readonly relations: Map<number, Relation> = new Map(),
    private readonly spill?: SpillOptions,
  ) {}

  get inTransaction(): boolean {
    return this.open !== null
  }

  /** Spilled bytes of the open transaction not yet on file: stop reading above a bound. */
  get spillBacklog(): number {
    return this.open?.spill?.backlog ?? 0
  }

  /** Resolves once the open transaction's spill backlog is below `bytes`. */
  spillDrained(bytes: number): Promise<void> {
    return this.open?.spill?.drained(bytes) ?? Promise.resolve()
  }

  /** The session ends with a transaction open: its spill file goes. */
  async abandon(): Promise<void> {
    const spill = this.open?.spill
    this.open = null
    await spill?.discard()
  }

  /** `bytes`: the message's size on the wire, counted against the spill limit. */
  push(message: PgOutputMessage, bytes = 0): AssemblerEvent | null {
    switch (message.tag) {
      case 'begin':
        if (this.open) throw new Error('begin inside an open transaction')
        this.open = { xid: message.xid, changes: [], bytes: 0, spill: null }
        return null
      case 'commit':
        return this.commit(message)
      case 'relation':
        return this.remember(message.relation)
      case 'insert': {
        const relation = this.relation(message.relationId)
        const newRow = toRow(relation, message.newTuple, null)
        return this.add({ kind: 'insert', relation, newRow }, bytes)
      }
      case 'update': {
        const relation = this.relation(message.relationId)
        const oldRow = message.old ? toOldRow(relation, message.old) : null
        const newRow = toRow(relation, message.newTuple, oldRow)
        return this.add({ kind: 'update', relation, oldRow, newRow }, bytes)
      }
      case 'delete': {
        const relation = this.relation(message.relationId)
        const oldRow = toOldRow(relation, message.old)
        return this.add({ kind: 'delete', relation, oldRow }, bytes)
      }
      case 'truncate': {
        const relations = message.relationIds.map((id) => this.relation(id))
        return this.add({ kind: 'truncate', relations }, bytes)
      }
      // Types are only informational for text values; origins and logical messages
      // (pg_logical_emit_message) carry nothing a shape needs.
      case 'type':
      case 'origin':
      case 'message':
        return null
    }
  }

  private commit(
    message: Extract<PgOutputMessage, { tag: 'commit' }>,
  ): AssemblerEvent {
    const open = this.open
    if (!open) throw new Error('commit without begin')
    this.open = null
    if (open.changes.length === 0 && !open.spill)
      return { kind: 'emptyTransaction', endLsn: message.endLsn }
    return {
      kind: 'transaction',
      transaction: {
        xid: open.xid,
        commitLsn: message.commitLsn,
        endLsn: message.endLsn,
        commitTime: message.commitTime,
        changes: open.changes,
        ...(open.spill ? { spilled: open.spill.commit() } : {}),
      },
    }
  }

  private remember(relation: Relation): AssemblerEvent | null {
    const previous = this.relations.get(relation.id)
    this.relations.set(relation.id, relation)
    if (!previous || sameRelation(previous, relation)) return null
    return { kind: 'relationChanged', previous, next: relation }
  }

  private add(change: Change, bytes: number): null {
    const open = this.open
    if (!open) throw new Error(`${change.kind} outside a transaction`)
    if (open.spill) {
      open.spill.add(change)
      return null
    }
    open.changes.push(change)
    open.bytes += bytes
    const { spill } = this
    if (
      spill &&
      (open.changes.length > spill.limit.changes ||
        open.bytes > spill.limit.bytes)
    ) {
      const name = `${open.xid}-${randomBytes(4).toString('hex')}.spill`
      open.spill = new SpillWriter(join(spill.dir, name))
      for (const held of open.changes) open.spill.add(held)
      open.changes = []
      open.bytes = 0
    }
    return null
  }

  private relation(id: number): Relation {
    const relation = this.relations.get(id)
    // pgoutput always sends a Relation message before a relation's first change.
    if (!relation) throw new Error(`change for unknown relation id ${id}`)
    return relation
  }
}

/** Unchanged TOAST values come from `old` when it holds them, else the column is left out. */
function toRow(relation: Relation, tuple: TupleData, old: Row | null): Row {
  checkWidth(relation, tuple)
  const row: Row = {}
  relation.columns.forEach((column, i) => {
    const value = tuple[i]
    if (value === undefined) return
    if (value !== unchangedToast) row[column.name] = value
    else if (old && Object.hasOwn(old, column.name))
      row[column.name] = old[column.name] ?? null
  })
  return row
}

/** A key-only old tuple sends nulls for non-key columns; keep just the key so nothing lies. */
function toOldRow(relation: Relation, old: OldTuple): Row {
  const row = toRow(relation, old.tuple, null)
  if (old.kind === 'full') return row
  for (const column of relation.columns)
    if (!column.isKey) delete row[column.name]
  return row
}

function checkWidth(relation: Relation, tuple: TupleData): void {
  if (tuple.length !== relation.columns.length)
    throw new Error(
      `tuple of ${tuple.length} columns for "${relation.schema}"."${relation.name}" ` +
        `with ${relation.columns.length} columns`,
    )
}

function sameRelation(a: Relation, b: Relation): boolean {
  return (
    a.schema === b.schema &&
    a.name === b.name &&
    a.replicaIdentity === b.replicaIdentity &&
    a.columns.length === b.columns.length &&
    a.columns.every((column, i) => {
      const other = b.columns[i]
      return (
        other !== undefined &&
        column.name === other.name &&
        column.typeOid === other.typeOid &&
        column.typeMod === other.typeMod &&
        column.isKey === other.isKey
      )
    })
  )
}
