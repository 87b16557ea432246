// Renaming a source from its page: a dialog with the name, checked as the server checks it,
// that closes only once the synced row carries the new name, so the card and the title
// already show it.
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
} from '@mui/material'
import { useId, useState, type FormEvent } from 'react'
import type { Source } from '../../../shared/entities.ts'
import { sourceNameSchema } from '../../../shared/sources.ts'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { useSyncedWrites } from '../../db/tab/hooks.ts'
import { errorMessage, renameSource } from './source-api.ts'

export function RenameSource({ source }: { source: Source }) {
  const [open, setOpen] = useState(false)
  const [name, setName] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const { awaitSourceRenamed } = useSyncedWrites()
  const titleId = useId()

  const parsed = sourceNameSchema.safeParse(name)
  const nameError = parsed.success ? undefined : parsed.error.issues[0]?.message

  const show = () => {
    setName(source.name ?? '')
    setError(null)
    setOpen(true)
  }

  const save = async (event: FormEvent) => {
    event.preventDefault()
    if (!parsed.success) return
    setBusy(true)
    setError(null)
    try {
      const answer = await renameSource(source.id, { name: parsed.data })
      await awaitSourceRenamed(source.id, answer.name, answer.txid)
      setOpen(false)
    } catch (e) {
      setError(errorMessage(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <NeedsNetwork>
        <Button variant="outlined" onClick={show}>
          Rename
        </Button>
      </NeedsNetwork>
      <Dialog
        open={open}
        onClose={busy ? undefined : () => setOpen(false)}
        aria-labelledby={titleId}
        maxWidth="sm"
        fullWidth
      >
        <form onSubmit={(e) => void save(e)}>
          <DialogTitle id={titleId}>Rename source</DialogTitle>
          <DialogContent>
            <Stack spacing={2} sx={{ pt: 1 }}>
              <TextField
                label="Name"
                value={name}
                onChange={(e) => setName(e.target.value)}
                error={Boolean(nameError)}
                helperText={
                  nameError ?? 'Leave empty to show the source by its id.'
                }
                disabled={busy}
                autoFocus
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
            <Button onClick={() => setOpen(false)} disabled={busy}>
              Cancel
            </Button>
            <NeedsNetwork>
              <Button
                type="submit"
                variant="contained"
                disabled={busy || !parsed.success}
              >
                {busy ? 'Saving...' : 'Save'}
              </Button>
            </NeedsNetwork>
          </DialogActions>
        </form>
      </Dialog>
    </>
  )
}
