// The store's worker thread. PGliteWorker cannot report a failed init and can miss its own
// "you lead" message (it listens only after an await), so our worker says both itself, and
// these listeners exist before it can say anything. PGliteWorker must attach in the same task
// as this runs: the worker's first message ("here") is not replayed for late listeners.
import { STORE_FAILED, STORE_LEADER } from './worker-messages.ts'

export type WorkerThread = {
  worker: Worker
  /** Resolves when this tab's worker holds the database (this tab syncs). */
  leader: Promise<void>
  /** Rejects when the worker failed to open the database. */
  failed: Promise<never>
}

let thread: WorkerThread | null = null

export function startWorkerThread(): WorkerThread {
  if (thread) return thread
  const worker = new Worker(new URL('./worker.ts', import.meta.url), {
    type: 'module',
  })
  let leading: () => void = () => {}
  const leader = new Promise<void>((resolve) => (leading = resolve))
  const failed = new Promise<never>((_, reject) => {
    worker.addEventListener('message', (event: MessageEvent) => {
      const data = event.data as { type?: string; message?: string }
      if (data.type === STORE_LEADER) leading()
      if (data.type === STORE_FAILED)
        reject(new Error(`The local store failed to open: ${data.message}`))
    })
    worker.addEventListener('error', (event) =>
      reject(new Error(`The local store worker failed: ${event.message}`)),
    )
  })
  // Nobody may be waiting yet; the store reports the failure when it is asked for.
  failed.catch(() => {})
  thread = { worker, leader, failed }
  return thread
}
