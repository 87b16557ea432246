// A transaction that reaches a shape while its snapshot completes is applied, whenever it
// arrives: even after the drain of those that waited has looked at the queue for the last time
// and before it hands back (other work's microtasks run in between). Left in the queue then,
// it was never applied, and the transactions after it went straight to the log.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Relation } from '../../src/engine/pg/pgoutput.ts'
import type { Transaction } from '../../src/engine/replication/types.ts'
import { Shape } from '../../src/engine/shapes/shape.ts'
import type { TableInfo } from '../../src/engine/shapes/table-info.ts'
import { fileLogs } from '../../src/engine/storage/log-store.ts'
import { messageText } from '../../src/engine/http/answer-body.ts'

const info: TableInfo = {
  table: { schema: 'public', name: 'items' },
  oid: 1,
  signature: 'id:23',
  columns: [
    {
      name: 'id',
      type: 'int4',
      typeOid: 23,
      dims: 0,
      notNull: true,
      enum: false,
      pkIndex: 0,
      typeMod: -1,
      generated: '',
    },
  ],
  primaryKey: ['id'],
  partitioned: false,
  unpublished: [],
}

const relation: Relation = {
  id: 1,
  schema: 'public',
  name: 'items',
  replicaIdentity: 'd',
  columns: [],
}

const insert = (xid: number, lsn: bigint) => {
  const change = {
    kind: 'insert',
    relation,
    newRow: { id: String(xid) },
  } as const
  const tx: Transaction = {
    xid,
    commitLsn: lsn,
    endLsn: lsn + 1n,
    commitTime: new Date(0),
    changes: [change],
  }
  return { tx, changes: [{ change, index: 0 }] }
}

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0))
    rmSync(dir, { recursive: true, force: true })
})

describe('a shape completing its snapshot', () => {
  it('applies a transaction that arrives as the drain of those that waited hands back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shape-pending-'))
    dirs.push(dir)
    const shape = Shape.forTable(
      fileLogs,
      dir,
      {
        table: info.table,
        where: null,
        params: [],
        columns: null,
        replica: 'default',
      },
      info,
      null,
    )
    const first = insert(10, 100n)
    const late = insert(11, 200n)
    expect(shape.begin(first.tx, first.changes)).toBeNull()
    // The drain of what waited, and a transaction arriving just after its last look.
    const drain = shape.drain.bind(shape)
    let arrived = false
    shape.drain = async (slice) => {
      await drain(slice)
      if (arrived) return
      arrived = true
      expect(shape.begin(late.tx, late.changes)).toBeNull()
    }
    await shape.completeSnapshot({ xmin: 5n, xmax: 5n, xip: [] })
    expect(shape.pending).toHaveLength(0)
    const read = shape.log.read({ tx: 0n, op: Infinity }, 1 << 20)
    expect(
      read.messages.map(
        (m) => (JSON.parse(messageText(m)) as { key: string }).key,
      ),
    ).toEqual(['"public"."items"/"10"', '"public"."items"/"11"'])
    shape.log.close()
  })
})
