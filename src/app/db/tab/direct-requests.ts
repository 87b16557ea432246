// Requests to the store's worker that skip PGliteWorker's protocol.
//
// A query from a tab through PGliteWorker is about a dozen round trips to the worker (locks,
// parse, describe, bind, execute, sync, write-back, each its own message through the
// browser), which on a busy first screen adds up to a good part of a visit. When this tab's
// own worker holds the database, a one-off read goes to it as one message and comes back as
// one, and the worker runs it like any other statement (after any transaction in progress).
// The same way, a tab can wait until what the store holds is written to IndexedDB, which
// PGliteWorker cannot ask for. When another tab's worker holds the database, both go the
// usual way.
import type { PGliteInterface } from '@electric-sql/pglite'
import {
  DIRECT_REQUESTS,
  NOT_HELD_HERE,
  type DirectAnswer,
  type DirectRequest,
} from '../shared/worker-messages.ts'
import { startWorkerThread } from './worker-thread.ts'

type Rows<T> = { rows: T[] }
type Unsent<R> = R extends unknown ? Omit<R, 'id'> : never

let channel: {
  port: MessagePort
  pending: Map<number, (answer: DirectAnswer) => void>
} | null = null
let nextId = 0

function send(request: Unsent<DirectRequest>): Promise<DirectAnswer> {
  if (!channel) {
    const { port1, port2 } = new MessageChannel()
    const pending = new Map<number, (answer: DirectAnswer) => void>()
    port1.onmessage = ({ data }: MessageEvent<DirectAnswer>) => {
      pending.get(data.id)?.(data)
      pending.delete(data.id)
    }
    startWorkerThread().post({ type: DIRECT_REQUESTS }, [port2])
    channel = { port: port1, pending }
  }
  const { port, pending } = channel
  const id = nextId++
  return new Promise((resolve) => {
    pending.set(id, resolve)
    port.postMessage({ ...request, id } as DirectRequest)
  })
}

/** `sql` with `params`, read by this tab's worker if it holds the database, else through `pg`. */
export async function readOnce<T>(
  pg: Pick<PGliteInterface, 'query'>,
  sql: string,
  params: unknown[],
): Promise<Rows<T>> {
  const answer = await send({ kind: 'read', sql, params })
  if ('rows' in answer) return { rows: answer.rows as T[] }
  if ('error' in answer && answer.error !== NOT_HELD_HERE)
    throw new Error(answer.error)
  return pg.query<T>(sql, params)
}

/**
 * Resolves once the store's files are written to IndexedDB. Through another tab's worker it
 * can only ask for the write-back (PGlite does not wait for it with relaxed durability).
 */
export async function flushStore(
  pg: Pick<PGliteInterface, 'syncToFs'>,
): Promise<void> {
  const answer = await send({ kind: 'flush' })
  if ('done' in answer) return
  if ('error' in answer && answer.error !== NOT_HELD_HERE)
    throw new Error(answer.error)
  await pg.syncToFs()
}
