// The replication stream against real Postgres: what each change decodes to, transaction
// boundaries and order, schema changes, and one transaction at a time to the handler.
import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { addTableToPublication } from '../../src/engine/replication/slot.ts'
import {
  createSource,
  currentWalLsn,
  inTransaction,
  Recorder,
  type Source,
} from '../support/replication-harness.ts'

const sources: Source[] = []
async function source(): Promise<Source> {
  const created = await createSource()
  sources.push(created)
  return created
}
afterEach(async () => {
  await Promise.all(sources.splice(0).map((s) => s.drop()))
})

async function publish(s: Source, table: string, columns: string) {
  await s.db.query(`create table ${table} (${columns})`)
  await addTableToPublication(s.db, s.publication, 'public', table)
}

describe('decoded values', () => {
  it('delivers inserts, updates, deletes and truncates as Postgres text output', async () => {
    const s = await source()
    await publish(
      s,
      'items',
      `id int8 primary key, title text, note text, amount numeric(12,3), tags text[],
       doc jsonb, at timestamptz, big text, span interval, bin bytea, f float8, day date`,
    )
    const recorder = new Recorder()
    await s.stream(recorder)
    // Random hex does not compress below the TOAST threshold, so it is stored out of line.
    const big = randomBytes(64 * 1024).toString('hex')
    const xid = await inTransaction(s.db, [
      `insert into items values (9007199254740993, 'Grüße 👋 "q"', null, 12345.678,
        '{a,"b c",NULL}', '{"b": [1, 2], "a": "x"}', '2024-10-09 12:34:56.789+02',
        '${big}', '1 day 2 hours', '\\x0102', 0.1, '2024-10-09')`,
    ])
    await s.db.query(
      `update items set title = 'renamed' where id = 9007199254740993`,
    )
    await s.db.query('delete from items')
    await s.db.query('truncate items')

    const [insert, update, del, truncate] = await recorder.received(4)
    const row = {
      id: '9007199254740993',
      title: 'Grüße 👋 "q"',
      note: null,
      amount: '12345.678',
      tags: '{a,"b c",NULL}',
      doc: '{"a": "x", "b": [1, 2]}',
      at: '2024-10-09 10:34:56.789+00',
      big,
      // The shape protocol's display settings, whatever the server's defaults.
      span: 'P1DT2H',
      bin: '\\x0102',
      f: '0.1',
      day: '2024-10-09',
    }
    expect(insert?.xid).toBe(xid)
    expect(insert?.changes).toEqual([
      expect.objectContaining({ kind: 'insert', newRow: row }),
    ])
    expect(update?.changes).toEqual([
      expect.objectContaining({
        kind: 'update',
        oldRow: row,
        // The TOASTed value was not sent again; it comes from the old row.
        newRow: { ...row, title: 'renamed' },
      }),
    ])
    expect(del?.changes).toEqual([
      expect.objectContaining({
        kind: 'delete',
        oldRow: { ...row, title: 'renamed' },
      }),
    ])
    const truncated = truncate?.changes[0]
    expect(truncated?.kind).toBe('truncate')
    if (truncated?.kind === 'truncate')
      expect(truncated.relations.map((r) => r.name)).toEqual(['items'])

    const relation =
      insert?.changes[0]?.kind === 'insert' ? insert.changes[0].relation : null
    expect(relation).toMatchObject({
      schema: 'public',
      name: 'items',
      replicaIdentity: 'f',
    })
    expect(relation?.columns.map((c) => [c.name, c.typeOid])).toEqual([
      ['id', 20],
      ['title', 25],
      ['note', 25],
      ['amount', 1700],
      ['tags', 1009],
      ['doc', 3802],
      ['at', 1184],
      ['big', 25],
      ['span', 1186],
      ['bin', 17],
      ['f', 701],
      ['day', 1082],
    ])
    for (const tx of [insert, update, del, truncate]) {
      expect(tx?.endLsn).toBeGreaterThan(tx?.commitLsn ?? 0n)
      expect(tx?.commitTime).toBeInstanceOf(Date)
    }
  })

  it('leaves an unchanged TOASTed value out when the table does not send old rows', async () => {
    const s = await source()
    await s.db.query('create table plain (id int primary key, big text, n int)')
    // Default replica identity: the old row is not logged, only what changed.
    await s.db.query(`alter publication ${s.publication} add table plain`)
    const recorder = new Recorder()
    await s.stream(recorder)
    const big = randomBytes(64 * 1024).toString('hex')
    await s.db.query('insert into plain values (1, $1, 1)', [big])
    await s.db.query('update plain set n = 2')
    await s.db.query('delete from plain')

    const [, update, del] = await recorder.received(3)
    expect(update?.changes[0]).toMatchObject({ kind: 'update', oldRow: null })
    expect(
      update?.changes[0]?.kind === 'update' && update.changes[0].newRow,
    ).toEqual({
      id: '1',
      n: '2',
    })
    expect(del?.changes[0]).toMatchObject({
      kind: 'delete',
      oldRow: { id: '1' },
    })
  })
})

describe('transactions', () => {
  it('delivers a transaction over two tables as one, changes in order', async () => {
    const s = await source()
    await publish(s, 'a', 'id int primary key, v text')
    await publish(s, 'b', 'id int primary key')
    const recorder = new Recorder()
    await s.stream(recorder)
    await inTransaction(s.db, [
      `insert into a values (1, 'x')`,
      'insert into b values (1)',
      `update a set v = 'y'`,
    ])

    const [tx] = await recorder.received(1)
    expect(
      tx?.changes.map(
        (c) => c.kind !== 'truncate' && [c.kind, c.relation.name],
      ),
    ).toEqual([
      ['insert', 'a'],
      ['insert', 'b'],
      ['update', 'a'],
    ])
  })

  it('delivers transactions in commit order, not start order', async () => {
    const s = await source()
    await publish(s, 't', 'id int primary key')
    const recorder = new Recorder()
    await s.stream(recorder)
    const first = await s.db.connect()
    try {
      await first.query('begin')
      await first.query('insert into t values (1)')
      const later = await inTransaction(s.db, ['insert into t values (2)'])
      await first.query('commit')

      const [one, two] = await recorder.received(2)
      expect(one?.xid).toBe(later)
      expect(two?.changes[0]).toMatchObject({ newRow: { id: '1' } })
      expect(two?.commitLsn).toBeGreaterThan(one?.commitLsn ?? 0n)
    } finally {
      first.release()
    }
  })

  it('hands over the next transaction only after the previous one resolved', async () => {
    const s = await source()
    await publish(s, 't', 'id int primary key')
    const recorder = new Recorder()
    let release = () => {}
    recorder.gate = new Promise((resolve) => (release = resolve))
    await s.stream(recorder)
    for (const id of [1, 2, 3]) await s.db.query(`insert into t values (${id})`)
    const end = await currentWalLsn(s.db)
    await recorder.received(1)
    // The server has sent all three ...
    await expect
      .poll(async () => {
        const { rows } = await s.db.query<{ sent: string | null }>(
          `select (r.sent_lsn - '0/0')::text as sent from pg_stat_replication r
             join pg_replication_slots s on s.active_pid = r.pid where s.slot_name = $1`,
          [s.slot],
        )
        return BigInt(rows[0]?.sent ?? '0')
      })
      .toBeGreaterThanOrEqual(end)
    // ... and after two more round trips on another socket our event loop has read them,
    // yet only the first is with the handler.
    await s.db.query('select 1')
    await s.db.query('select 1')
    expect(recorder.transactions).toHaveLength(1)
    recorder.gate = null
    release()
    const all = await recorder.received(3)
    expect(all.map((tx) => tx.changes[0])).toMatchObject([
      { newRow: { id: '1' } },
      { newRow: { id: '2' } },
      { newRow: { id: '3' } },
    ])
  })
})

describe('publication changes', () => {
  it('streams a table added to the publication while the session runs', async () => {
    const s = await source()
    const recorder = new Recorder()
    await s.stream(recorder)
    await s.db.query('create table late (id int primary key)')
    await s.db.query('insert into late values (1)')
    await addTableToPublication(s.db, s.publication, 'public', 'late')
    await s.db.query('insert into late values (2)')

    const [tx] = await recorder.received(1)
    expect(tx?.changes).toMatchObject([{ kind: 'insert', newRow: { id: '2' } }])
  })
})

describe('schema changes', () => {
  it('reports a changed relation before the transaction that uses it', async () => {
    const s = await source()
    await publish(s, 't', 'id int primary key')
    const recorder = new Recorder()
    await s.stream(recorder)
    await s.db.query('insert into t values (1)')
    await recorder.received(1)
    await s.db.query('alter table t add column label text')
    const xid = await inTransaction(s.db, [`insert into t values (2, 'two')`])

    const [, second] = await recorder.received(2)
    expect(recorder.relationChanges).toHaveLength(1)
    const [change] = recorder.relationChanges
    expect(change?.previous.columns.map((c) => c.name)).toEqual(['id'])
    expect(change?.next.columns.map((c) => c.name)).toEqual(['id', 'label'])
    expect(recorder.events.slice(1)).toEqual(['relation t', `tx ${xid}`])
    expect(second?.changes[0]).toMatchObject({
      newRow: { id: '2', label: 'two' },
    })
  })

  it('notices a change made while disconnected when given the previous relations', async () => {
    const s = await source()
    await publish(s, 't', 'id int primary key')
    const relations = new Map()
    const before = new Recorder()
    const stream = await s.stream(before, { relations })
    await s.db.query('insert into t values (1)')
    await before.received(1)
    await stream.stop()
    await s.db.query('alter table t add column label text')

    const after = new Recorder()
    await s.stream(after, { relations })
    await s.db.query(`insert into t values (2, 'two')`)
    await after.received(1)
    expect(after.relationChanges.map((c) => c.next.columns.length)).toEqual([2])
  })
})
