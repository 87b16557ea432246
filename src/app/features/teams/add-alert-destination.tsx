// The team page's 'Add webhook' and 'Add email' (issue 19): a dialog for the URL or the address;
// once the new destination has synced here a webhook's dialog shows its signing secret, this
// one time, with a copy button (an email's just closes: email is not signed).
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
import {
  ALERT_EMAIL_MAX_LENGTH,
  ALERT_URL_MAX_LENGTH,
} from '../../../shared/alerts.ts'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { useSyncedWrites } from '../../db/tab/hooks.ts'
import { CopyButton } from '../sources/copy-button.tsx'
import { createAlertDestination } from './alerts-api.ts'

const KINDS = {
  webhook: {
    title: 'Add webhook',
    label: 'Webhook URL',
    placeholder: 'https://example.com/sluice-alerts',
    helper: 'Sluice POSTs a signed JSON alert here.',
    maxLength: ALERT_URL_MAX_LENGTH,
    type: 'url',
  },
  email: {
    title: 'Add email',
    label: 'Email address',
    placeholder: 'oncall@example.com',
    helper: 'Sluice emails a plain-text alert here.',
    maxLength: ALERT_EMAIL_MAX_LENGTH,
    type: 'email',
  },
} as const

export function AddAlertDestination({
  teamId,
  kind,
}: {
  teamId: string
  kind: keyof typeof KINDS
}) {
  const text = KINDS[kind]
  const titleId = useId()
  const [open, setOpen] = useState(false)
  const [value, setValue] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [secret, setSecret] = useState<string | null>(null)
  const { awaitCreated } = useSyncedWrites()

  const show = () => {
    setValue('')
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
      const target = value.trim()
      const created = await createAlertDestination(
        teamId,
        kind === 'email' ? { email: target } : { url: target },
      )
      await awaitCreated('alert_destinations', created.id, created.txid)
      if (created.secret) setSecret(created.secret)
      else close()
    } catch (e) {
      setError(
        `Failed to ${text.title.toLowerCase()}: ${e instanceof Error ? e.message : String(e)}`,
      )
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <NeedsNetwork>
        <Button variant="outlined" onClick={show}>
          {text.title}
        </Button>
      </NeedsNetwork>
      <Dialog
        open={open}
        onClose={busy ? undefined : close}
        aria-labelledby={titleId}
        maxWidth="sm"
        fullWidth
      >
        <DialogTitle id={titleId}>{text.title}</DialogTitle>
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
                  label={text.label}
                  type={text.type}
                  value={value}
                  onChange={(e) => setValue(e.target.value)}
                  placeholder={text.placeholder}
                  helperText={text.helper}
                  slotProps={{
                    htmlInput: { maxLength: text.maxLength },
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
                  disabled={busy || value.trim() === ''}
                >
                  {busy ? 'Adding...' : text.title}
                </Button>
              </NeedsNetwork>
            </DialogActions>
          </form>
        )}
      </Dialog>
    </>
  )
}
