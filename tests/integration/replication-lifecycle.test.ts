// The replication stream's contract with the slot: what gets confirmed (never more than the
// handler allows, the idle WAL end when nothing is pending), restarts, stop and failures.
import { afterEach, describe, expect, it } from 'vitest'
import { addTableToPublication } from '../../src/engine/replication/slot.ts'
import { startReplication } from '../../src/engine/replication/stream.ts'
import {
  confirmedFlush,
  createSource,
  currentWalLsn,
  Recorder,
  type Source,
} from '../support/replication-harness.ts'

const sources: Source[] = []
async function sourceWithTable(): Promise<Source> {
  const created = await createSource()
  sources.push(created)
  await created.db.query('create table t (id int primary key)')
  await addTableToPublication(created.db, created.publication, 'public', 't')
  return created
}
afterEach(async () => {
  await Promise.all(sources.splice(0).map((s) => s.drop()))
})

const insert = (s: Source, id: number) =>
  s.db.query('insert into t values ($1)', [id])

async function activePid(s: Source): Promise<number | null> {
  const { rows } = await s.db.query<{ pid: number | null }>(
    'select active_pid as pid from pg_replication_slots where slot_name = $1',
    [s.slot],
  )
  return rows[0]?.pid ?? null
}

describe('confirmation', () => {
  it('confirms no more than flushedLsn() while a transaction is not durable', async () => {
    const s = await sourceWithTable()
    const recorder = new Recorder(false)
    await s.stream(recorder)
    await insert(s, 1)
    await insert(s, 2)
    const [first, second] = await recorder.received(2)
    recorder.durable = first?.endLsn ?? 0n

    await expect.poll(() => confirmedFlush(s)).toBe(first?.endLsn)
    // Many status updates later, with the server's WAL end known, it has not moved on.
    const seen = recorder.statusRequests
    await expect.poll(() => recorder.statusRequests).toBeGreaterThan(seen + 5)
    expect(recorder.lastCaughtUp).toBeGreaterThanOrEqual(second?.endLsn ?? 0n)
    expect(await confirmedFlush(s)).toBe(first?.endLsn)

    recorder.durable = second?.endLsn ?? 0n
    await expect
      .poll(() => confirmedFlush(s))
      .toBeGreaterThanOrEqual(second?.endLsn ?? 0n)
  })

  it('advances the slot past unrelated WAL once nothing is pending', async () => {
    const s = await sourceWithTable()
    const recorder = new Recorder()
    await s.stream(recorder)
    await insert(s, 1)
    const [tx] = await recorder.received(1)
    // Writes outside the publication produce WAL but nothing to deliver.
    await s.db.query('create table other (id int)')
    await s.db.query('insert into other select generate_series(1, 1000)')
    const end = await currentWalLsn(s.db)

    await expect
      .poll(() => confirmedFlush(s), { timeout: 4_000 })
      .toBeGreaterThanOrEqual(end)
    expect(end).toBeGreaterThan(tx?.endLsn ?? 0n)
    expect(recorder.transactions).toHaveLength(1)
  })

  it('restarts from the confirmed LSN: confirmed transactions stay delivered, others come again', async () => {
    const s = await sourceWithTable()
    const before = new Recorder(false)
    const stream = await s.stream(before)
    for (const id of [1, 2, 3]) await insert(s, id)
    const [first, second, third] = await before.received(3)
    before.durable = first?.endLsn ?? 0n
    await expect.poll(() => confirmedFlush(s)).toBe(first?.endLsn)
    await stream.stop()
    await expect(stream.done).resolves.toBeUndefined()

    const after = new Recorder()
    await s.stream(after, { startLsn: await confirmedFlush(s) })
    await insert(s, 4)
    const again = await after.received(3)
    expect(again.map((tx) => tx.xid)).toEqual([
      second?.xid,
      third?.xid,
      expect.any(Number),
    ])
    expect(again[2]?.changes[0]).toMatchObject({ newRow: { id: '4' } })
  })
})

describe('lifecycle', () => {
  it('rejects done when the server terminates the backend', async () => {
    const s = await sourceWithTable()
    const stream = await s.stream(new Recorder())
    const pid = await activePid(s)
    expect(pid).not.toBeNull()
    await s.db.query('select pg_terminate_backend($1)', [pid])
    await expect(stream.done).rejects.toMatchObject({ code: '57P01' })
  })

  it('answers keepalives that ask for a reply, so the server keeps the session', async () => {
    const s = await sourceWithTable()
    // The server asks for a reply after half its timeout; our own updates would come too late.
    const stream = await s.stream(new Recorder(), {
      sessionOptions: '-c wal_sender_timeout=300ms',
      statusIntervalMs: 60_000,
    })
    const pid = await activePid(s)
    const replies = new Set<string>()
    await expect
      .poll(
        async () => {
          const { rows } = await s.db.query<{ at: string | null }>(
            'select reply_time::text as at from pg_stat_replication where pid = $1',
            [pid],
          )
          if (rows[0]?.at) replies.add(rows[0].at)
          return replies.size
        },
        { timeout: 4_000, interval: 50 },
      )
      .toBeGreaterThan(5)
    // Several timeouts have passed; the same backend still streams.
    expect(await activePid(s)).toBe(pid)
    await stream.stop()
    await expect(stream.done).resolves.toBeUndefined()
  })

  it('stop() resolves done, releases the slot and stops deliveries', async () => {
    const s = await sourceWithTable()
    const recorder = new Recorder()
    const stream = await s.stream(recorder)
    await stream.stop()
    await expect(stream.done).resolves.toBeUndefined()
    await expect.poll(() => activePid(s)).toBeNull()
    await insert(s, 1)
    // A new session sees the insert; the stopped one never did.
    const next = new Recorder()
    await s.stream(next)
    await next.received(1)
    expect(recorder.transactions).toHaveLength(0)
  })

  it('stops when its signal aborts', async () => {
    const s = await sourceWithTable()
    const controller = new AbortController()
    const stream = await s.stream(new Recorder(), { signal: controller.signal })
    controller.abort()
    await expect(stream.done).resolves.toBeUndefined()
    await expect.poll(() => activePid(s)).toBeNull()
  })

  it('does not start streaming when its signal aborts while it connects', async () => {
    const s = await sourceWithTable()
    const controller = new AbortController()
    const starting = s.stream(new Recorder(), { signal: controller.signal })
    // Aborted before the stream exists: nobody could stop a stream that started anyway
    // (a server shutting down at that moment waited for it forever).
    controller.abort()
    await expect(starting).rejects.toMatchObject({ name: 'AbortError' })
    await expect.poll(() => activePid(s)).toBeNull()
  })

  it('fails to start on a missing slot with the server error', async () => {
    const s = await sourceWithTable()
    await expect(
      startReplication({
        connectionString: s.url,
        slot: 'sluice_missing_slot',
        publication: s.publication,
        startLsn: 0n,
        handler: new Recorder(),
      }),
    ).rejects.toMatchObject({ code: '42704' })
  })

  it('rejects done when the handler throws, and the transaction comes again', async () => {
    const s = await sourceWithTable()
    const failing = new Recorder()
    failing.gate = Promise.reject(new Error('disk full'))
    failing.gate.catch(() => {})
    const stream = await s.stream(failing)
    await insert(s, 1)
    await expect(stream.done).rejects.toThrow('disk full')

    const retry = new Recorder()
    await s.stream(retry)
    const [tx] = await retry.received(1)
    expect(tx?.xid).toBe(failing.transactions[0]?.xid)
  })
})
