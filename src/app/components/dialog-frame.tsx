// The frame every Sluice dialog that calls the server shares: a titled dialog (named by its
// title for screen readers) that cannot be dismissed while the call runs, its content with the
// call's failure under it, and Cancel beside the action, which needs the network.
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  type ButtonProps,
  type SxProps,
  type Theme,
} from '@mui/material'
import { useId, type ReactNode } from 'react'
import { NeedsNetwork } from './needs-network.tsx'

export function DialogFrame(props: {
  open: boolean
  title: string
  busy: boolean
  onClose: () => void
  /** A function is handed the title to place itself (a form that holds the whole dialog). */
  children: ReactNode | ((title: ReactNode) => ReactNode)
}) {
  const titleId = useId()
  const title = <DialogTitle id={titleId}>{props.title}</DialogTitle>
  return (
    <Dialog
      open={props.open}
      onClose={props.busy ? undefined : props.onClose}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
    >
      {typeof props.children === 'function' ? (
        props.children(title)
      ) : (
        <>
          {title}
          {props.children}
        </>
      )}
    </Dialog>
  )
}

/** The dialog's content, then the call's failure, kept in view so it can be read and retried. */
export function DialogBody(props: {
  error: string | null
  sx?: SxProps<Theme>
  children: ReactNode
}) {
  return (
    <DialogContent>
      <Stack spacing={2} sx={props.sx}>
        {props.children}
        {props.error && (
          <Alert severity="error" role="alert">
            {props.error}
          </Alert>
        )}
      </Stack>
    </DialogContent>
  )
}

/** Cancel and the action; both wait while the call runs, and the action says it runs. */
export function DialogButtons(props: {
  busy: boolean
  onCancel: () => void
  label: string
  busyLabel: string
  disabled: boolean
  action: Pick<ButtonProps, 'color' | 'type' | 'onClick'>
}) {
  return (
    <DialogActions>
      <Button onClick={props.onCancel} disabled={props.busy}>
        Cancel
      </Button>
      <NeedsNetwork>
        <Button
          variant="contained"
          {...props.action}
          disabled={props.busy || props.disabled}
        >
          {props.busy ? props.busyLabel : props.label}
        </Button>
      </NeedsNetwork>
    </DialogActions>
  )
}
