// Assembling decoded pgoutput messages into transactions: rows by column name, unchanged TOAST
// filled from old rows, key-only old rows, relation changes and empty transactions; a
// transaction past the spill limit goes to a file.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TransactionAssembler } from '../../src/engine/replication/assembler.ts'
import {
  unchangedToast,
  type PgOutputMessage,
} from '../../src/engine/pg/pgoutput.ts'
import type { Relation } from '../../src/engine/replication/types.ts'

const items: Relation = {
  id: 1,
  schema: 'public',
  name: 'items',
  replicaIdentity: 'f',
  columns: [
    { name: 'id', typeOid: 23, typeMod: -1, isKey: true },
    { name: 'big', typeOid: 25, typeMod: -1, isKey: false },
    { name: 'n', typeOid: 23, typeMod: -1, isKey: false },
  ],
}
const TIME = new Date('2024-01-01T00:00:00Z')
const begin = (xid: number): PgOutputMessage => ({
  tag: 'begin',
  finalLsn: 100n,
  commitTime: TIME,
  xid,
})
const commit = (commitLsn: bigint): PgOutputMessage => ({
  tag: 'commit',
  flags: 0,
  commitLsn,
  endLsn: commitLsn + 8n,
  commitTime: TIME,
})

function run(assembler: TransactionAssembler, messages: PgOutputMessage[]) {
  return messages.map((m) => assembler.push(m)).filter((e) => e !== null)
}

describe('TransactionAssembler', () => {
  it('assembles Begin..Commit into one transaction with rows by column name', () => {
    const events = run(new TransactionAssembler(), [
      begin(7),
      { tag: 'relation', relation: items },
      { tag: 'type', typeOid: 9, schema: 'public', name: 'mood' },
      { tag: 'origin', originLsn: 1n, name: 'x' },
      { tag: 'insert', relationId: 1, newTuple: ['1', 'b', null] },
      {
        tag: 'message',
        transactional: true,
        lsn: 1n,
        prefix: 'p',
        content: Buffer.alloc(0),
      },
      {
        tag: 'delete',
        relationId: 1,
        old: { kind: 'full', tuple: ['1', 'b', null] },
      },
      {
        tag: 'truncate',
        relationIds: [1],
        cascade: false,
        restartIdentity: false,
      },
      commit(200n),
    ])
    expect(events).toEqual([
      {
        kind: 'transaction',
        transaction: {
          xid: 7,
          commitLsn: 200n,
          endLsn: 208n,
          commitTime: TIME,
          changes: [
            {
              kind: 'insert',
              relation: items,
              newRow: { id: '1', big: 'b', n: null },
            },
            {
              kind: 'delete',
              relation: items,
              oldRow: { id: '1', big: 'b', n: null },
            },
            { kind: 'truncate', relations: [items] },
          ],
        },
      },
    ])
  })

  it('fills unchanged TOAST values from the full old row', () => {
    const assembler = new TransactionAssembler(new Map([[1, items]]))
    const [event] = run(assembler, [
      begin(1),
      {
        tag: 'update',
        relationId: 1,
        old: { kind: 'full', tuple: ['1', 'huge', '1'] },
        newTuple: ['1', unchangedToast, '2'],
      },
      commit(10n),
    ])
    expect(event?.kind === 'transaction' && event.transaction.changes).toEqual([
      {
        kind: 'update',
        relation: items,
        oldRow: { id: '1', big: 'huge', n: '1' },
        newRow: { id: '1', big: 'huge', n: '2' },
      },
    ])
  })

  it('leaves out unchanged TOAST values it cannot know, and keeps only key columns of key tuples', () => {
    const assembler = new TransactionAssembler(new Map([[1, items]]))
    const [event] = run(assembler, [
      begin(1),
      {
        tag: 'update',
        relationId: 1,
        old: null,
        newTuple: ['1', unchangedToast, '2'],
      },
      {
        tag: 'update',
        relationId: 1,
        old: { kind: 'key', tuple: ['1', null, null] },
        newTuple: ['5', unchangedToast, '2'],
      },
      {
        tag: 'delete',
        relationId: 1,
        old: { kind: 'key', tuple: ['5', null, null] },
      },
      commit(10n),
    ])
    expect(event?.kind === 'transaction' && event.transaction.changes).toEqual([
      {
        kind: 'update',
        relation: items,
        oldRow: null,
        newRow: { id: '1', n: '2' },
      },
      {
        kind: 'update',
        relation: items,
        oldRow: { id: '1' },
        newRow: { id: '5', n: '2' },
      },
      { kind: 'delete', relation: items, oldRow: { id: '5' } },
    ])
  })

  it('reports a relation whose shape changed, not one sent again unchanged', () => {
    const assembler = new TransactionAssembler()
    const wider: Relation = {
      ...items,
      columns: [
        ...items.columns,
        { name: 'x', typeOid: 25, typeMod: -1, isKey: false },
      ],
    }
    const renamed: Relation = { ...wider, name: 'things' }
    const events = run(assembler, [
      { tag: 'relation', relation: items },
      { tag: 'relation', relation: { ...items, columns: [...items.columns] } },
      { tag: 'relation', relation: wider },
      { tag: 'relation', relation: renamed },
      { tag: 'relation', relation: { ...renamed, replicaIdentity: 'd' } },
    ])
    expect(events).toEqual([
      { kind: 'relationChanged', previous: items, next: wider },
      { kind: 'relationChanged', previous: wider, next: renamed },
      {
        kind: 'relationChanged',
        previous: renamed,
        next: { ...renamed, replicaIdentity: 'd' },
      },
    ])
    expect(assembler.relations.get(1)?.replicaIdentity).toBe('d')
  })

  it('reports a transaction without changes as its end position only', () => {
    const assembler = new TransactionAssembler()
    expect(assembler.push(begin(1))).toBeNull()
    expect(assembler.inTransaction).toBe(true)
    expect(assembler.push(commit(50n))).toEqual({
      kind: 'emptyTransaction',
      endLsn: 58n,
    })
    expect(assembler.inTransaction).toBe(false)
  })

  it('rejects messages out of protocol order', () => {
    const assembler = new TransactionAssembler(new Map([[1, items]]))
    const insert: PgOutputMessage = {
      tag: 'insert',
      relationId: 1,
      newTuple: ['1', null, null],
    }
    expect(() => assembler.push(insert)).toThrow('insert outside a transaction')
    expect(() => assembler.push(commit(1n))).toThrow('commit without begin')
    assembler.push(begin(1))
    expect(() => assembler.push(begin(2))).toThrow(
      'begin inside an open transaction',
    )
    expect(() => assembler.push({ ...insert, relationId: 2 })).toThrow(
      'unknown relation id 2',
    )
    expect(() => assembler.push({ ...insert, newTuple: ['1'] })).toThrow(
      'tuple of 1 columns for "public"."items" with 3 columns',
    )
  })
})

describe('TransactionAssembler with a spill limit', () => {
  const insert = (id: number): PgOutputMessage => ({
    tag: 'insert',
    relationId: 1,
    newTuple: [String(id), `body ${id}`, null],
  })

  it('keeps a transaction within the limit in memory, and spills one past it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-assembler-'))
    try {
      const assembler = new TransactionAssembler(new Map(), {
        dir,
        limit: { changes: 10, bytes: 1024 * 1024 },
      })
      const small = run(assembler, [
        begin(1),
        { tag: 'relation', relation: items },
        ...Array.from({ length: 10 }, (_, i) => insert(i)),
        commit(200n),
      ])
      expect(small[0]).toMatchObject({ kind: 'transaction' })
      const smallTx =
        small[0]?.kind === 'transaction' ? small[0].transaction : null
      expect(smallTx?.spilled).toBeUndefined()
      expect(smallTx?.changes).toHaveLength(10)
      expect(readdirSync(dir)).toEqual([])

      const large = run(assembler, [
        begin(2),
        ...Array.from({ length: 25 }, (_, i) => insert(i)),
        commit(300n),
      ])
      const tx = large[0]?.kind === 'transaction' ? large[0].transaction : null
      expect(tx?.changes).toEqual([])
      expect(tx?.spilled?.count).toBe(25)
      const read: string[] = []
      for await (const chunk of tx?.spilled?.chunks(7) ?? [])
        for (const change of chunk)
          if (change.kind === 'insert') read.push(change.newRow.id ?? '')
      expect(read).toEqual(Array.from({ length: 25 }, (_, i) => String(i)))
      await tx?.spilled?.remove()
      expect(readdirSync(dir)).toEqual([])

      // A session that ends inside a spilling transaction leaves no file.
      run(assembler, [
        begin(3),
        ...Array.from({ length: 30 }, (_, i) => insert(i)),
      ])
      // The spill file is opened off the event loop: it appears a moment later.
      await expect.poll(() => readdirSync(dir)).toHaveLength(1)
      await assembler.abandon()
      expect(readdirSync(dir)).toEqual([])
      expect(assembler.inTransaction).toBe(false)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
