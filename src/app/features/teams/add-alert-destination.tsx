// The team page's 'Add webhook' and 'Add email': a dialog for the URL or the address;
// once the new destination has synced here a webhook's dialog shows its signing secret, this
// one time, with a copy button (an email's just closes: email is not signed).
import { Button, TextField } from '@mui/material'
import { useState } from 'react'
import {
  ALERT_EMAIL_MAX_LENGTH,
  ALERT_URL_MAX_LENGTH,
} from '../../../shared/alerts.ts'
import { DialogCopyResult } from '../../components/dialog-copy-result.tsx'
import { DialogForm } from '../../components/dialog-form.tsx'
import { DialogFrame } from '../../components/dialog-frame.tsx'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { messageOf, useServerCall } from '../../components/use-server-call.ts'
import { useSyncedWrites } from '../../db/tab/hooks.ts'
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
  const [open, setOpen] = useState(false)
  const [value, setValue] = useState('')
  const call = useServerCall()
  const [secret, setSecret] = useState<string | null>(null)
  const { awaitCreated } = useSyncedWrites()

  const show = () => {
    setValue('')
    call.clearError()
    setSecret(null)
    setOpen(true)
  }
  // The secret lives only in this dialog's state: closing it forgets it.
  const close = () => {
    setSecret(null)
    setOpen(false)
  }

  const create = () =>
    void call.run(
      async () => {
        const target = value.trim()
        const created = await createAlertDestination(
          teamId,
          kind === 'email' ? { email: target } : { url: target },
        )
        await awaitCreated('alert_destinations', created.id, created.txid)
        if (created.secret) setSecret(created.secret)
        else close()
      },
      (e) => `Failed to ${text.title.toLowerCase()}: ${messageOf(e)}`,
    )

  return (
    <>
      <NeedsNetwork>
        <Button variant="outlined" onClick={show}>
          {text.title}
        </Button>
      </NeedsNetwork>
      <DialogFrame
        open={open}
        title={text.title}
        busy={call.busy}
        onClose={close}
      >
        {secret ? (
          <DialogCopyResult
            label="Signing secret"
            value={secret}
            copyLabel="Copy signing secret"
            onDone={close}
          >
            Use this secret to verify the sluice-signature header of each alert.
            It is shown only once: copy it now.
          </DialogCopyResult>
        ) : (
          <DialogForm
            busy={call.busy}
            error={call.error}
            submitLabel={text.title}
            busyLabel="Adding..."
            canSubmit={value.trim() !== ''}
            onSubmit={create}
            onCancel={close}
          >
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
          </DialogForm>
        )}
      </DialogFrame>
    </>
  )
}
