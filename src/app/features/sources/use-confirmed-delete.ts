// The state of a delete behind a ConfirmDialog: which item is asked about, whether the delete
// runs, and its error (shown in the dialog, which stays open on failure).
import { useState } from 'react'

export function useConfirmedDelete<T>(run: (item: T) => Promise<void>) {
  const [deleting, setDeleting] = useState<T | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  return {
    deleting,
    busy,
    error,
    ask(item: T) {
      setError(null)
      setDeleting(item)
    },
    cancel: () => setDeleting(null),
    async confirm() {
      if (deleting === null) return
      setBusy(true)
      setError(null)
      try {
        await run(deleting)
        setDeleting(null)
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e))
      } finally {
        setBusy(false)
      }
    },
  }
}
