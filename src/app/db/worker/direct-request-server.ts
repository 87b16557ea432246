// The worker's side of direct requests (direct-requests.ts): a tab hands over a port, and each
// request on it is answered with its result, or with why not.
import type { PGlite } from '@electric-sql/pglite'
import {
  DIRECT_REQUESTS,
  NOT_HELD_HERE,
  type DirectAnswer,
  type DirectRequest,
} from '../shared/worker-messages.ts'

type MessageScope = {
  addEventListener(
    type: 'message',
    listener: (event: MessageEvent) => void,
  ): void
}

/**
 * The database once this worker holds it, how to write it back to IndexedDB now, and how to
 * let go of its IndexedDB files, which are about to be deleted (store-fs.ts release).
 */
export type Held = {
  database: Promise<PGlite>
  flush: () => Promise<void>
  release: () => Promise<void>
}

export function serveDirectRequests(
  scope: MessageScope,
  held: () => Held | null,
): void {
  scope.addEventListener('message', (event) => {
    const data = event.data as { type?: string } | null
    const port = event.ports[0]
    if (data?.type !== DIRECT_REQUESTS || !port) return
    port.onmessage = ({ data: request }: MessageEvent<DirectRequest>) =>
      void answer(held(), request).then((reply) => port.postMessage(reply))
  })
}

/** A read runs like any other statement: after a transaction in progress, never inside it. */
export async function answer(
  held: Held | null,
  request: DirectRequest,
): Promise<DirectAnswer> {
  const { id } = request
  if (!held) return { id, error: NOT_HELD_HERE }
  try {
    if (request.kind === 'flush') {
      await held.database
      await held.flush()
      return { id, done: true }
    }
    const db = await held.database
    const { rows } = await db.query<Record<string, unknown>>(
      request.sql,
      request.params,
    )
    return { id, rows }
  } catch (error) {
    return {
      id,
      error: error instanceof Error ? error.message : String(error),
    }
  }
}
