// A call to the server that a dialog waits on: whether it runs, and its failure as the text the
// dialog shows (the dialog stays open with it, so it can be read and the call tried again).
import { useState } from 'react'

/** A failure's own message: the app's API errors carry the text the user is meant to read. */
export const messageOf = (e: unknown) =>
  e instanceof Error ? e.message : String(e)

export function useServerCall() {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  return {
    busy,
    error,
    clearError: () => setError(null),
    async run(
      call: () => Promise<void>,
      errorText: (e: unknown) => string = messageOf,
    ) {
      setBusy(true)
      setError(null)
      try {
        await call()
      } catch (e) {
        setError(errorText(e))
      } finally {
        setBusy(false)
      }
    },
  }
}
