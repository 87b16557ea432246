// Shown while the server cannot be reached: what is on screen is the local store's copy.
import CloudOffIcon from '@mui/icons-material/CloudOff'
import { Alert } from '@mui/material'
import { useOnline } from '../lib/use-online.ts'

const OFFLINE_TEXT = 'Offline, showing last-known data'

export function OfflineIndicator() {
  const online = useOnline()
  if (online) return null
  return (
    <Alert
      severity="warning"
      icon={<CloudOffIcon fontSize="inherit" />}
      role="status"
      sx={{ mb: 2 }}
    >
      {OFFLINE_TEXT}
    </Alert>
  )
}
