// The state of an action behind a ConfirmDialog: which item is asked about, whether the action
// runs, and its failure (shown in the dialog, which stays open on failure). `dialog` is what
// the ConfirmDialog takes from it.
import { useState } from 'react'
import { messageOf, useServerCall } from './use-server-call.ts'

export function useConfirmedAction<T>(
  run: (item: T) => Promise<void>,
  /** The failure as the dialog says it, about the item asked about; its message by default. */
  errorText: (e: unknown, item: T) => string = messageOf,
) {
  const [asking, setAsking] = useState<T | null>(null)
  const call = useServerCall()
  const cancel = () => setAsking(null)
  const confirm = async () => {
    if (asking === null) return
    const item = asking
    await call.run(
      async () => {
        await run(item)
        setAsking(null)
      },
      (e) => errorText(e, item),
    )
  }
  return {
    asking,
    ask(item: T) {
      call.clearError()
      setAsking(item)
    },
    dialog: {
      open: asking !== null,
      busy: call.busy,
      error: call.error,
      onConfirm: () => void confirm(),
      onClose: cancel,
    },
  }
}
