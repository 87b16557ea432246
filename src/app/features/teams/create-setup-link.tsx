// The team page's 'Create setup link' (issue 17): a dialog with an optional preset region and
// the days the link lasts (default 7, at most 30); once the new form has synced here it shows
// the link to copy and hand to whoever owns the database.
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material'
import { useId, useState, type FormEvent } from 'react'
import {
  SETUP_FORM_DEFAULT_EXPIRY_DAYS,
  SETUP_FORM_MAX_EXPIRY_DAYS,
} from '../../../shared/constants.ts'
import {
  expiresInDaysSchema,
  SETUP_FORM_REGIONS,
} from '../../../shared/setup-forms.ts'
import type { Region } from '../../../shared/sources.ts'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { useSyncedWrites } from '../../db/tab/hooks.ts'
import { CopyButton } from '../sources/copy-button.tsx'
import { createSetupForm } from './setup-forms-api.ts'

// The select's value for "no preset": the visitor chooses.
const ANY = 'any'

export function CreateSetupLink({ teamId }: { teamId: string }) {
  const titleId = useId()
  const [open, setOpen] = useState(false)
  const [region, setRegion] = useState<Region | typeof ANY>(ANY)
  const [days, setDays] = useState(String(SETUP_FORM_DEFAULT_EXPIRY_DAYS))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [link, setLink] = useState<string | null>(null)
  const { awaitCreated } = useSyncedWrites()

  const parsedDays = expiresInDaysSchema.safeParse(Number(days))
  const daysError = parsedDays.success
    ? null
    : `Enter a whole number of days from 1 to ${SETUP_FORM_MAX_EXPIRY_DAYS}`

  const show = () => {
    setRegion(ANY)
    setDays(String(SETUP_FORM_DEFAULT_EXPIRY_DAYS))
    setError(null)
    setLink(null)
    setOpen(true)
  }

  const create = async (event: FormEvent) => {
    event.preventDefault()
    if (!parsedDays.success) return
    setBusy(true)
    setError(null)
    try {
      const created = await createSetupForm(teamId, {
        region: region === ANY ? null : region,
        expires_in_days: parsedDays.data,
      })
      await awaitCreated('source_setup_forms', created.id, created.txid)
      setLink(created.url)
    } catch (e) {
      setError(
        `Failed to create setup link: ${e instanceof Error ? e.message : String(e)}`,
      )
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <NeedsNetwork>
        <Button variant="outlined" onClick={show}>
          Create setup link
        </Button>
      </NeedsNetwork>
      <Dialog
        open={open}
        onClose={busy ? undefined : () => setOpen(false)}
        aria-labelledby={titleId}
        maxWidth="sm"
        fullWidth
      >
        <DialogTitle id={titleId}>Create setup link</DialogTitle>
        {link ? (
          <>
            <DialogContent>
              <Stack spacing={2}>
                <Typography>
                  Send this link to whoever owns the database. It adds one
                  source to this team, once; no sign-in is needed.
                </Typography>
                <Stack
                  direction="row"
                  spacing={1}
                  sx={{ alignItems: 'center' }}
                >
                  <TextField
                    label="Setup link"
                    value={link}
                    fullWidth
                    slotProps={{ htmlInput: { readOnly: true } }}
                  />
                  <CopyButton value={link} label="Copy setup link" />
                </Stack>
              </Stack>
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setOpen(false)}>Done</Button>
            </DialogActions>
          </>
        ) : (
          <form onSubmit={(e) => void create(e)} noValidate>
            <DialogContent>
              <Stack spacing={2} sx={{ pt: 1 }}>
                <TextField
                  select
                  label="Region"
                  value={region}
                  onChange={(e) => setRegion(e.target.value as Region)}
                  helperText="A preset region is fixed on the setup page."
                >
                  <MenuItem value={ANY}>Chosen by the visitor</MenuItem>
                  {SETUP_FORM_REGIONS.map((r) => (
                    <MenuItem key={r.id} value={r.id}>
                      {r.label} ({r.id})
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  label="Expires in (days)"
                  type="number"
                  value={days}
                  onChange={(e) => setDays(e.target.value)}
                  error={daysError !== null}
                  helperText={
                    daysError ?? `At most ${SETUP_FORM_MAX_EXPIRY_DAYS} days.`
                  }
                  slotProps={{
                    htmlInput: { min: 1, max: SETUP_FORM_MAX_EXPIRY_DAYS },
                  }}
                />
                {error && (
                  <Alert severity="error" role="alert">
                    {error}
                  </Alert>
                )}
              </Stack>
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setOpen(false)} disabled={busy}>
                Cancel
              </Button>
              <NeedsNetwork>
                <Button
                  type="submit"
                  variant="contained"
                  disabled={busy || daysError !== null}
                >
                  {busy ? 'Creating...' : 'Create link'}
                </Button>
              </NeedsNetwork>
            </DialogActions>
          </form>
        )}
      </Dialog>
    </>
  )
}
