// A dialog's form: its fields and the call's failure, then Cancel and the submit button. The
// dialog checks its fields itself and says what is wrong under each (noValidate), and submits
// only when they pass.
import type { ReactNode } from 'react'
import { DialogBody, DialogButtons } from './dialog-frame.tsx'

export function DialogForm(props: {
  /**
   * The dialog's title when the form holds the whole dialog (DialogFrame's function child):
   * MUI then sets the content right under it, without the content's own top padding.
   */
  title?: ReactNode
  busy: boolean
  error: string | null
  submitLabel: string
  busyLabel: string
  /** False keeps the submit button disabled (a field that does not pass). */
  canSubmit: boolean
  onSubmit: () => void
  onCancel: () => void
  children: ReactNode
}) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault()
        props.onSubmit()
      }}
      noValidate
    >
      {props.title}
      <DialogBody error={props.error} sx={{ pt: 1 }}>
        {props.children}
      </DialogBody>
      <DialogButtons
        busy={props.busy}
        onCancel={props.onCancel}
        label={props.submitLabel}
        busyLabel={props.busyLabel}
        disabled={!props.canSubmit}
        action={{ type: 'submit' }}
      />
    </form>
  )
}
