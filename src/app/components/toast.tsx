// The app's one toast area, bottom right. Anything can call useToast()(message, severity).
import { Alert, Snackbar, type AlertColor } from '@mui/material'
import {
  createContext,
  useCallback,
  useContext,
  useState,
  type ReactNode,
} from 'react'

type Toast = { id: number; message: string; severity: AlertColor }
type ShowToast = (message: string, severity?: AlertColor) => void

const ToastContext = createContext<ShowToast>(() => {})

export function ToastProvider({ children }: { children: ReactNode }) {
  const [queue, setQueue] = useState<Toast[]>([])
  const show = useCallback<ShowToast>((message, severity = 'info') => {
    setQueue((q) => [
      ...q,
      { id: Date.now() + Math.random(), message, severity },
    ])
  }, [])
  const current = queue[0]
  const dismiss = () => setQueue((q) => q.slice(1))
  return (
    <ToastContext value={show}>
      {children}
      <Snackbar
        key={current?.id}
        open={current !== undefined}
        autoHideDuration={6000}
        onClose={(_, reason) => reason !== 'clickaway' && dismiss()}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      >
        <Alert
          severity={current?.severity ?? 'info'}
          variant="filled"
          onClose={dismiss}
        >
          {current?.message}
        </Alert>
      </Snackbar>
    </ToastContext>
  )
}

export function useToast(): ShowToast {
  return useContext(ToastContext)
}
