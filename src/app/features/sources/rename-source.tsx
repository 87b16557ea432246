// Renaming a source from its page: a dialog with the name, checked as the server checks it,
// that closes only once the synced row carries the new name, so the card and the title
// already show it.
import { Button, TextField } from '@mui/material'
import { useState } from 'react'
import type { Source } from '../../../shared/entities.ts'
import { sourceNameSchema } from '../../../shared/sources.ts'
import { DialogForm } from '../../components/dialog-form.tsx'
import { DialogFrame } from '../../components/dialog-frame.tsx'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { useServerCall } from '../../components/use-server-call.ts'
import { useSyncedWrites } from '../../db/tab/hooks.ts'
import { errorMessage, updateSource } from './source-api.ts'

export function RenameSource({ source }: { source: Source }) {
  const [open, setOpen] = useState(false)
  const [name, setName] = useState('')
  const call = useServerCall()
  const { awaitSourceLabels } = useSyncedWrites()

  const parsed = sourceNameSchema.safeParse(name)
  const nameError = parsed.success ? undefined : parsed.error.issues[0]?.message

  const show = () => {
    setName(source.name ?? '')
    call.clearError()
    setOpen(true)
  }

  const save = () => {
    if (!parsed.success) return
    void call.run(async () => {
      const answer = await updateSource(source.id, { name: parsed.data })
      await awaitSourceLabels(source.id, { name: answer.name }, answer.txid)
      setOpen(false)
    }, errorMessage)
  }

  return (
    <>
      <NeedsNetwork>
        <Button variant="outlined" onClick={show}>
          Rename
        </Button>
      </NeedsNetwork>
      <DialogFrame
        open={open}
        title="Rename source"
        busy={call.busy}
        onClose={() => setOpen(false)}
      >
        {(title) => (
          <DialogForm
            title={title}
            busy={call.busy}
            error={call.error}
            submitLabel="Save"
            busyLabel="Saving..."
            canSubmit={parsed.success}
            onSubmit={save}
            onCancel={() => setOpen(false)}
          >
            <TextField
              label="Name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={Boolean(nameError)}
              helperText={
                nameError ?? 'Leave empty to show the source by its id.'
              }
              disabled={call.busy}
              autoFocus
              fullWidth
            />
          </DialogForm>
        )}
      </DialogFrame>
    </>
  )
}
