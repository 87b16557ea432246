// Offered when the WAL level is the validation's only failure (wal-only.ts): turns on the Neon
// project's logical replication after a confirm, since it restarts the project's computes and
// cannot be undone, then has the page validate again.
import { Alert, Button, Stack, Typography } from '@mui/material'
import { useState } from 'react'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { useServerCall } from '../../components/use-server-call.ts'
import { failureText } from './failure-text.ts'
import { enableLogicalReplication } from './provider-api.ts'

export function EnableLogicalReplication({
  projectId,
  onEnabled,
}: {
  projectId: string
  onEnabled: () => void
}) {
  const [open, setOpen] = useState(false)
  const call = useServerCall()

  const onConfirm = () =>
    void call.run(
      async () => {
        await enableLogicalReplication(projectId)
        setOpen(false)
        onEnabled()
      },
      (failure) => failureText(failure, 'Failed to enable logical replication'),
    )

  return (
    <Alert severity="info" component="section">
      <Stack spacing={1}>
        <Typography variant="body2">
          Neon can set this project&apos;s WAL level to logical for you.
        </Typography>
        <div>
          <NeedsNetwork>
            <Button variant="contained" onClick={() => setOpen(true)}>
              Enable logical replication
            </Button>
          </NeedsNetwork>
        </div>
      </Stack>
      <ConfirmDialog
        open={open}
        title="Enable logical replication?"
        confirmLabel="Enable logical replication"
        busyLabel="Enabling..."
        busy={call.busy}
        error={call.error}
        onConfirm={onConfirm}
        onClose={() => setOpen(false)}
      >
        <Typography>
          This restarts the project&apos;s computes, which drops their open
          connections for a moment, and cannot be undone: Neon does not let
          logical replication be turned off again.
        </Typography>
      </ConfirmDialog>
    </Alert>
  )
}
