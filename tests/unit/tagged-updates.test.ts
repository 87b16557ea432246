// Updates of rows tagged by a shape's subqueries (src/engine/shapes/changes.ts): sent as
// Electric sends them (`tags`, `removed_tags`), except an update that moves a tag to another
// value at a slot it keeps (`A/B` to `A/C`), which goes out in two records so that TanStack DB's
// electric collection, which drops the row from every slot value of a removed tag, keeps it
// under A.
import { describe, expect, it } from 'vitest'
import {
  TransactionRecords,
  type ShapeView,
} from '../../src/engine/shapes/changes.ts'
import type { Row, Transaction } from '../../src/engine/replication/types.ts'
import type { Relation } from '../../src/engine/pg/pgoutput.ts'

// `project_id IN (…) AND owner_id IN (…)`: one disjunct, two positions, slots `P<p>/O<o>`.
const view: ShapeView = {
  relation: ['public', 'tasks'],
  columns: ['id', 'project_id', 'owner_id', 'title'],
  primaryKey: ['id'],
  replica: 'default',
  matches: () => true,
  tagged: (row: Row) => ({
    tags: [`P${row.project_id}/O${row.owner_id}`],
    active: [true, true],
  }),
}

const relation: Relation = {
  id: 1,
  schema: 'public',
  name: 'tasks',
  replicaIdentity: 'f',
  columns: [],
}

const tx: Transaction = {
  xid: 7,
  commitLsn: 100n,
  endLsn: 101n,
  commitTime: new Date(0),
  changes: [],
}

const row = (project: string, owner: string, title = 't'): Row => ({
  id: '1',
  project_id: project,
  owner_id: owner,
  title,
})

function sent(oldRow: Row, newRow: Row) {
  const records = new TransactionRecords(view, tx)
  records.add({ kind: 'update', relation, oldRow, newRow }, 0)
  return records.finish().map((r) => ({
    offset: `${r.offset.tx}_${r.offset.op}`,
    ...(JSON.parse(r.json) as {
      value: Row
      headers: Record<string, unknown>
    }),
  }))
}

describe('an update of a tagged row', () => {
  it('keeps Electric’s form when its tags stay or change at every slot', () => {
    const same = sent(row('1', '2'), row('1', '2', 'renamed'))
    expect(same).toHaveLength(1)
    expect(same[0]?.headers).toMatchObject({
      operation: 'update',
      tags: ['P1/O2'],
      active_conditions: [true, true],
      removed_tags: [],
    })
    const both = sent(row('1', '2'), row('3', '4'))
    expect(both).toHaveLength(1)
    expect(both[0]?.headers).toMatchObject({
      tags: ['P3/O4'],
      removed_tags: ['P1/O2'],
    })
  })

  it('goes out in two when a slot keeps its value: the tags lost, then the change', () => {
    const records = sent(row('1', '2'), row('1', '3'))
    expect(records).toEqual([
      {
        offset: '100_0',
        key: '"public"."tasks"/"1"',
        value: { id: '1' },
        headers: expect.objectContaining({
          operation: 'update',
          removed_tags: ['P1/O2'],
        }),
      },
      {
        offset: '100_1',
        key: '"public"."tasks"/"1"',
        value: { id: '1', owner_id: '3' },
        headers: expect.objectContaining({
          operation: 'update',
          tags: ['P1/O3'],
          active_conditions: [true, true],
          last: true,
        }),
      },
    ])
    expect(records[0]?.headers).not.toHaveProperty('tags')
    expect(records[0]?.headers).not.toHaveProperty('last')
    expect(records[1]?.headers).not.toHaveProperty('removed_tags')
  })
})
