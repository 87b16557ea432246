// A confirmation for an action that calls the server: it stays open while the call runs and
// shows the call's failure, so the user can read it and try again.
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
} from '@mui/material'
import { useId, type ReactNode } from 'react'
import { NeedsNetwork } from '../../components/needs-network.tsx'

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
  const titleId = useId()
  return (
    <Dialog
      open={props.open}
      onClose={props.busy ? undefined : props.onClose}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
    >
      <DialogTitle id={titleId}>{props.title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          {props.children}
          {props.error && (
            <Alert severity="error" role="alert">
              {props.error}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose} disabled={props.busy}>
          Cancel
        </Button>
        <NeedsNetwork>
          <Button
            color="error"
            variant="contained"
            onClick={props.onConfirm}
            disabled={props.busy || props.canConfirm === false}
          >
            {props.busy ? props.busyLabel : props.confirmLabel}
          </Button>
        </NeedsNetwork>
      </DialogActions>
    </Dialog>
  )
}
