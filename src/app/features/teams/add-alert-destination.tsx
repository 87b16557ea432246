// The team page's 'Add webhook' (issue 19): a dialog for the URL; once the new destination has
// synced here it shows the signing secret, this one time, with a copy button.
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material'
import { useId, useState, type FormEvent } from 'react'
import { ALERT_URL_MAX_LENGTH } from '../../../shared/alerts.ts'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { useSyncedWrites } from '../../db/tab/hooks.ts'
import { CopyButton } from '../sources/copy-button.tsx'
import { createAlertDestination } from './alerts-api.ts'

export function AddAlertDestination({ teamId }: { teamId: string }) {
  const titleId = useId()
  const [open, setOpen] = useState(false)
  const [url, setUrl] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [secret, setSecret] = useState<string | null>(null)
  const { awaitCreated } = useSyncedWrites()

  const show = () => {
    setUrl('')
    setError(null)
    setSecret(null)
    setOpen(true)
  }
  // The secret lives only in this dialog's state: closing it forgets it.
  const close = () => {
    setSecret(null)
    setOpen(false)
  }

  const create = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const created = await createAlertDestination(teamId, url.trim())
      await awaitCreated('alert_destinations', created.id, created.txid)
      setSecret(created.secret)
    } catch (e) {
      setError(
        `Failed to add webhook: ${e instanceof Error ? e.message : String(e)}`,
      )
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <NeedsNetwork>
        <Button variant="outlined" onClick={show}>
          Add webhook
        </Button>
      </NeedsNetwork>
      <Dialog
        open={open}
        onClose={busy ? undefined : close}
        aria-labelledby={titleId}
        maxWidth="sm"
        fullWidth
      >
        <DialogTitle id={titleId}>Add webhook</DialogTitle>
        {secret ? (
          <>
            <DialogContent>
              <Stack spacing={2}>
                <Typography>
                  Use this secret to verify the sluice-signature header of each
                  alert. It is shown only once: copy it now.
                </Typography>
                <Stack
                  direction="row"
                  spacing={1}
                  sx={{ alignItems: 'center' }}
                >
                  <TextField
                    label="Signing secret"
                    value={secret}
                    fullWidth
                    slotProps={{ htmlInput: { readOnly: true } }}
                  />
                  <CopyButton value={secret} label="Copy signing secret" />
                </Stack>
              </Stack>
            </DialogContent>
            <DialogActions>
              <Button onClick={close}>Done</Button>
            </DialogActions>
          </>
        ) : (
          <form onSubmit={(e) => void create(e)} noValidate>
            <DialogContent>
              <Stack spacing={2} sx={{ pt: 1 }}>
                <TextField
                  label="Webhook URL"
                  value={url}
                  onChange={(e) => setUrl(e.target.value)}
                  placeholder="https://example.com/sluice-alerts"
                  helperText="Sluice POSTs a signed JSON alert here."
                  slotProps={{
                    htmlInput: { maxLength: ALERT_URL_MAX_LENGTH },
                  }}
                  fullWidth
                />
                {error && (
                  <Alert severity="error" role="alert">
                    {error}
                  </Alert>
                )}
              </Stack>
            </DialogContent>
            <DialogActions>
              <Button onClick={close} disabled={busy}>
                Cancel
              </Button>
              <NeedsNetwork>
                <Button
                  type="submit"
                  variant="contained"
                  disabled={busy || url.trim() === ''}
                >
                  {busy ? 'Adding...' : 'Add webhook'}
                </Button>
              </NeedsNetwork>
            </DialogActions>
          </form>
        )}
      </Dialog>
    </>
  )
}
