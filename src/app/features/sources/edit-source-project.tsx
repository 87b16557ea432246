// Setting a source's project and environment from its page: a dialog with both, checked as the
// server checks them, that closes only once the synced row carries them, so the card already
// shows the new chips.
import { Button } from '@mui/material'
import { useState } from 'react'
import type { Source } from '../../../shared/entities.ts'
import { DialogForm } from '../../components/dialog-form.tsx'
import { DialogFrame } from '../../components/dialog-frame.tsx'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { useServerCall } from '../../components/use-server-call.ts'
import { useSyncedWrites } from '../../db/tab/hooks.ts'
import { errorMessage, updateSource } from './source-api.ts'
import {
  parseTags,
  SourceTagFields,
  type TagValues,
} from './source-tag-fields.tsx'

export function EditSourceProject({ source }: { source: Source }) {
  const [open, setOpen] = useState(false)
  const [values, setValues] = useState<TagValues>({
    project: '',
    environment: '',
  })
  const call = useServerCall()
  const { awaitSourceLabels } = useSyncedWrites()
  const tags = parseTags(values).data

  const show = () => {
    setValues({
      project: source.project ?? '',
      environment: source.environment ?? '',
    })
    call.clearError()
    setOpen(true)
  }

  const save = () => {
    if (!tags) return
    void call.run(async () => {
      const answer = await updateSource(source.id, tags)
      await awaitSourceLabels(
        source.id,
        { project: answer.project, environment: answer.environment },
        answer.txid,
      )
      setOpen(false)
    }, errorMessage)
  }

  return (
    <>
      <NeedsNetwork>
        <Button variant="outlined" onClick={show}>
          Edit project
        </Button>
      </NeedsNetwork>
      <DialogFrame
        open={open}
        title="Project and environment"
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
            canSubmit={tags !== null}
            onSubmit={save}
            onCancel={() => setOpen(false)}
          >
            <SourceTagFields
              values={values}
              onChange={(change) => setValues({ ...values, ...change })}
              disabled={call.busy}
              autoFocus
            />
          </DialogForm>
        )}
      </DialogFrame>
    </>
  )
}
