// A source's event-log shape answers 404 once its source row is gone, and the browser logs
// every 404 as a console error. The answers themselves say when that is coming, so the stream
// holds its next request rather than asking into the 404:
// - rows leave this shape only when the source row is deleted (they go with it, on delete
//   cascade): after an answer that deletes rows it asks nothing more, and waits for the sync to
//   stop following the source once the source's own deletion reaches the store;
// - after a `delete_requested` event the engine may delete the row any moment: the next request
//   waits for the removal's outcome (the row gone, or a later write to it such as delete_failed)
//   or, at most, REMOVAL_HOLD_MS. A removal slower than that can still meet a 404; sync.ts
//   handles it.
import { SOURCE_EVENTS } from '../../../shared/sources.ts'

/** Removing a reachable database's slot takes well under a second; a failure says so sooner. */
export const REMOVAL_HOLD_MS = 10_000

/** Resolves once the source row has a write newer than `txid` (null: unknown), or times out. */
export type RemovalOutcome = (txid: number | null) => Promise<unknown>

type Message = {
  headers?: { operation?: unknown; txids?: unknown }
  value?: Record<string, unknown>
}

/** Wraps a source's event-log fetch so that it never asks for a log the server has dropped. */
export function eventLogFetch(
  fetchClient: typeof fetch,
  removalOutcome: RemovalOutcome,
): typeof fetch {
  let removed = false
  let holding: Promise<unknown> | null = null
  return async (input, init) => {
    if (holding) {
      await Promise.race([holding, untilAborted(init?.signal)])
      holding = null
    }
    if (removed) return untilAborted(init?.signal)
    const response = await fetchClient(input, init)
    if (!response.ok) return response
    const seen = readAnswer(await messagesOf(response.clone()))
    if (seen.deletes) removed = true
    else if (seen.removalRequested !== undefined)
      holding = removalOutcome(seen.removalRequested)
    return response
  }
}

/** What an answer says about its source: rows deleted, or a removal under way (its txid). */
export function readAnswer(messages: Message[]): {
  deletes: boolean
  removalRequested?: number | null
} {
  let removalRequested: number | null | undefined
  for (const message of messages) {
    if (message.headers?.operation === 'delete') return { deletes: true }
    const event = message.value?.event_name
    if (event === SOURCE_EVENTS.deleteRequested) {
      const txids = message.headers?.txids
      removalRequested = Array.isArray(txids)
        ? Math.max(...txids.map(Number))
        : null
    } else if (event === SOURCE_EVENTS.deleteFailed)
      removalRequested = undefined
  }
  return { deletes: false, removalRequested }
}

async function messagesOf(response: Response): Promise<Message[]> {
  try {
    const text = await response.text()
    // Most answers hold neither: skip parsing them twice.
    if (!text.includes('"delete"') && !text.includes('delete_requested'))
      return []
    const parsed: unknown = JSON.parse(text)
    return Array.isArray(parsed) ? (parsed as Message[]) : []
  } catch {
    return []
  }
}

/** Rejects when `signal` aborts (the stream stopping): a request that never asks. */
export function untilAborted(signal?: AbortSignal | null): Promise<never> {
  return new Promise((_, reject) => {
    const stop = () =>
      reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'))
    if (signal?.aborted) stop()
    else signal?.addEventListener('abort', stop, { once: true })
  })
}
