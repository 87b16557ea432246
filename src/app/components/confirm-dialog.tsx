// A confirmation for an action that calls the server: it stays open while the call runs and
// shows the call's failure, so the user can read it and try again.
import type { ReactNode } from 'react'
import { DialogBody, DialogButtons, DialogFrame } from './dialog-frame.tsx'

export function ConfirmDialog(props: {
  open: boolean
  title: string
  children: ReactNode
  confirmLabel: string
  busyLabel: string
  busy: boolean
  error: string | null
  /** False keeps the confirm button disabled (the forget dialog's typed id). */
  canConfirm?: boolean
  onConfirm: () => void
  onClose: () => void
}) {
  return (
    <DialogFrame
      open={props.open}
      title={props.title}
      busy={props.busy}
      onClose={props.onClose}
    >
      <DialogBody error={props.error}>{props.children}</DialogBody>
      <DialogButtons
        busy={props.busy}
        onCancel={props.onClose}
        label={props.confirmLabel}
        busyLabel={props.busyLabel}
        disabled={props.canConfirm === false}
        action={{ color: 'error', onClick: props.onConfirm }}
      />
    </DialogFrame>
  )
}
