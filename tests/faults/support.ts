// What the fault scenarios share: waiting on conditions, a client that records every message,
// the source's truth (count and checksum) and the comparison of both.
import { ShapeStream, type Row } from '@electric-sql/client'
import { createHash } from 'node:crypto'
import { chmod, mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Db } from '../../src/server/platform/db/database.ts'
import { waitUntil } from '../support/wait.ts'
import type { FaultResult } from './scenario.ts'

/** A directory for a scenario's own Postgres or engine data (Postgres, as root, must reach it). */
export async function scratchDir(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `sluice-fault-${name}-`))
  await chmod(dir, 0o755)
  return dir
}

export type Follower = {
  rows: Map<string, Row>
  /** Insert messages per key since the last 409 (a new shape sends every row again). */
  inserts: Map<string, number>
  handles: string[]
  /** 409s (must-refetch) the client was sent. */
  refetches: number
  /** HTTP statuses of errors the client saw (a 4xx for a dropped table, say). */
  errorStatuses: number[]
  stop(): void
}

/**
 * Follows one table's shape with the official client, recording every message. Network errors
 * while the engine is away are retried by the client itself; an HTTP 4xx ends the stream.
 */
export function follow(
  shapeUrl: string,
  table: string,
  where?: string,
): Follower {
  const aborter = new AbortController()
  const follower: Follower = {
    rows: new Map(),
    inserts: new Map(),
    handles: [],
    refetches: 0,
    errorStatuses: [],
    stop: () => aborter.abort(),
  }
  const stream = new ShapeStream<Row>({
    url: shapeUrl,
    params: where ? { table, where } : { table },
    signal: aborter.signal,
    onError: (error) => {
      const status = (error as { status?: number }).status
      if (status !== undefined) follower.errorStatuses.push(status)
      // Retry (keeping the params) on anything but a client error.
      return status !== undefined && status >= 400 && status < 500
        ? undefined
        : {}
    },
  })
  stream.subscribe((messages) => {
    const handle = stream.shapeHandle
    if (handle && follower.handles.at(-1) !== handle)
      follower.handles.push(handle)
    for (const m of messages) {
      if (!('key' in m)) {
        if (m.headers.control === 'must-refetch') {
          follower.refetches++
          follower.rows.clear()
          follower.inserts.clear()
        }
        continue
      }
      if (m.headers.operation === 'insert')
        follower.inserts.set(m.key, (follower.inserts.get(m.key) ?? 0) + 1)
      if (m.headers.operation === 'delete') follower.rows.delete(m.key)
      else follower.rows.set(m.key, { ...follower.rows.get(m.key), ...m.value })
    }
  })
  return follower
}

/** For a wait on a client that timed out: says what the client holds and was told. */
export const explain =
  (follower: Follower) =>
  (error: Error): never => {
    throw new Error(
      `${error.message} (client: ${follower.rows.size} rows, ${follower.refetches} refetches, errors ${follower.errorStatuses.join(',') || 'none'}, handles ${follower.handles.join(', ')})`,
    )
  }

/** A row as compared: its id and its columns in a fixed order, as text. */
const rowText = (row: Record<string, unknown>, columns: string[]) =>
  columns
    .map((c) => (row[c] === null || row[c] === undefined ? '' : String(row[c])))
    .join('\u0001')

export type Truth = { byId: Map<string, string>; checksum: string }

/** The source's rows of `table` (an `id` column first; those `where` picks), as compared. */
export async function truthOf(
  db: Db,
  table: string,
  columns: string[],
  where = 'true',
): Promise<Truth> {
  const { rows } = await db.query<Row>(
    `select ${columns.map((c) => `${c}::text as ${c}`).join(', ')} from ${table} where ${where} order by id`,
  )
  return digest(rows, columns)
}

/** Rows by id as compared, and a checksum over them in id order. */
export function digest(
  rows: Record<string, unknown>[],
  columns: string[],
): Truth {
  const byId = new Map<string, string>()
  for (const row of rows) byId.set(String(row.id), rowText(row, columns))
  const hash = createHash('sha256')
  for (const id of [...byId.keys()].sort()) hash.update(`${byId.get(id)}\n`)
  return { byId, checksum: hash.digest('hex') }
}

/** Counts and checksums the client's rows against the source's. */
export function compare(
  follower: Follower,
  truth: Truth,
  columns: string[],
): { lost: number; duplicated: number; same: boolean } {
  let repeats = 0
  for (const n of follower.inserts.values()) if (n > 1) repeats += n - 1
  return compareDigests(
    digest([...follower.rows.values()], columns),
    truth,
    repeats,
  )
}

/**
 * A client's rows (digested) against the source's. `repeats`: rows the client was given more
 * than once, which its digest (one row per id) cannot show.
 */
export function compareDigests(
  client: Truth,
  truth: Truth,
  repeats: number,
): { lost: number; duplicated: number; same: boolean } {
  let lost = 0
  for (const [id, text] of truth.byId) if (client.byId.get(id) !== text) lost++
  let duplicated = repeats
  for (const id of client.byId.keys()) if (!truth.byId.has(id)) duplicated++
  return {
    lost,
    duplicated,
    same: client.checksum === truth.checksum && duplicated === 0,
  }
}

/**
 * Waits (up to `timeoutMs`) for the client to match the source, then reports. `since`: when the
 * fault ended (performance.now()), for the time to recover.
 */
export async function settle(
  follower: Follower,
  source: () => Promise<Truth>,
  columns: string[],
  since: number,
  timeoutMs = 30_000,
): Promise<FaultResult> {
  const truth = await source()
  let recoverMs: number | null = null
  await waitUntil(
    'the client to match the source',
    () => compare(follower, truth, columns).same,
    timeoutMs,
  ).then(
    () => (recoverMs = Math.round(performance.now() - since)),
    () => {},
  )
  const { lost, duplicated } = compare(follower, truth, columns)
  return {
    lost,
    duplicated,
    recoverMs,
    notes: `${truth.byId.size} rows, checksum ${truth.checksum.slice(0, 12)}`,
  }
}

export type WriteLoad = {
  /** Ids written so far (each committed once: a retried insert that already landed is skipped). */
  readonly written: number
  stop(): Promise<void>
}

/**
 * Inserts rows `start`, `start + 1`, ... into `table (id, body)` one at a time until stopped,
 * riding out a source that goes away (insertLoad).
 */
export function writeLoad(db: Db, table: string, start = 1): WriteLoad {
  return insertLoad(
    (n) =>
      db.query(`insert into ${table} (id, body) values ($1, $2)`, [
        n,
        `row ${n}`,
      ]),
    start,
  )
}

/**
 * Runs `insert(start)`, `insert(start + 1)`, ... one at a time until stopped, riding out a
 * database that goes away: an insert whose commit is in doubt is retried, and a unique
 * violation then means it had landed (so `insert(n)` must always write the same key).
 */
export function insertLoad(
  insert: (n: number) => Promise<unknown>,
  start = 1,
): WriteLoad {
  let next = start
  let stopped = false
  const running = (async () => {
    while (!stopped) {
      try {
        await insert(next)
        next++
      } catch (error) {
        if ((error as { code?: string }).code === '23505') next++
        else await new Promise((r) => setTimeout(r, 50))
      }
    }
  })()
  return {
    get written() {
      return next - start
    },
    async stop() {
      stopped = true
      await running
    },
  }
}
