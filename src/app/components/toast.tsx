// The app's one toast area, bottom right. Components call useToast()(message, severity, action);
// code outside React (the service worker's update offer) calls showToast the same way.
import {
  Alert,
  Button,
  IconButton,
  Snackbar,
  type AlertColor,
} from '@mui/material'
import CloseIcon from '@mui/icons-material/Close'
import { useSyncExternalStore, type ReactNode } from 'react'

type ToastAction = { label: string; onClick: () => void }
type Toast = {
  id: number
  message: string
  severity: AlertColor
  action?: ToastAction
}
type ShowToast = (
  message: string,
  severity?: AlertColor,
  action?: ToastAction,
) => void

const AUTO_HIDE_MS = 6000

// One queue for the page, shown one toast at a time.
let queue: readonly Toast[] = []
const listeners = new Set<() => void>()

function setQueue(next: readonly Toast[]) {
  queue = next
  for (const listener of listeners) listener()
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export const showToast: ShowToast = (message, severity = 'info', action) => {
  setQueue([
    ...queue,
    { id: Date.now() + Math.random(), message, severity, action },
  ])
}

function dismiss(id: number) {
  setQueue(queue.filter((toast) => toast.id !== id))
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const current = useSyncExternalStore(subscribe, () => queue[0])
  const action = current?.action
  const close = () => {
    if (current) dismiss(current.id)
  }
  return (
    <>
      {children}
      <Snackbar
        key={current?.id}
        open={current !== undefined}
        // A toast that offers an action stays until it is used or closed.
        autoHideDuration={action ? null : AUTO_HIDE_MS}
        onClose={(_, reason) => reason !== 'clickaway' && close()}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      >
        <Alert
          severity={current?.severity ?? 'info'}
          variant="filled"
          onClose={close}
          action={action && <ActionButtons action={action} onClose={close} />}
        >
          {current?.message}
        </Alert>
      </Snackbar>
    </>
  )
}

// Alert shows either its action or its close button; a toast with an action needs both.
function ActionButtons({
  action,
  onClose,
}: {
  action: ToastAction
  onClose: () => void
}) {
  return (
    <>
      <Button
        color="inherit"
        size="small"
        onClick={() => {
          onClose()
          action.onClick()
        }}
      >
        {action.label}
      </Button>
      <IconButton
        color="inherit"
        size="small"
        aria-label="Close"
        onClick={onClose}
      >
        <CloseIcon fontSize="small" />
      </IconButton>
    </>
  )
}

export function useToast(): ShowToast {
  return showToast
}
