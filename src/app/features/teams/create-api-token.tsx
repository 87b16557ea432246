// The team page's 'Create API token': a dialog with the token's name and an optional expiry
// date; then the token, shown this once beside a copy button (the server keeps only its hash,
// so nobody can show it again).
import { Button, TextField } from '@mui/material'
import { useState } from 'react'
import { createApiTokenRequestSchema } from '../../../shared/api-tokens.ts'
import { DialogCopyResult } from '../../components/dialog-copy-result.tsx'
import { DialogForm } from '../../components/dialog-form.tsx'
import { DialogFrame } from '../../components/dialog-frame.tsx'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { messageOf, useServerCall } from '../../components/use-server-call.ts'
import { createApiToken } from './api-tokens-api.ts'

const { name: nameSchema, expires_at: expiresSchema } =
  createApiTokenRequestSchema.shape

/** `onCreated`: the list reads the tokens again (they are not synced). */
export function CreateApiToken(props: {
  teamId: string
  onCreated: () => void
}) {
  const [open, setOpen] = useState(false)
  const [name, setName] = useState('')
  // 'YYYY-MM-DD' from the date field, or '' for a token that never expires.
  const [expires, setExpires] = useState('')
  const [token, setToken] = useState<string | null>(null)
  const call = useServerCall()

  const nameError = nameSchema.safeParse(name).error?.issues[0]?.message
  const expiresError = expires
    ? expiresSchema.safeParse(expires).error?.issues[0]?.message
    : undefined

  const show = () => {
    setName('')
    setExpires('')
    setToken(null)
    call.clearError()
    setOpen(true)
  }

  const create = () => {
    if (nameError || expiresError) return
    void call.run(
      async () => {
        const created = await createApiToken(props.teamId, {
          name,
          expires_at: expires || null,
        })
        setToken(created.token)
        props.onCreated()
      },
      (e) => `Failed to create API token: ${messageOf(e)}`,
    )
  }

  return (
    <>
      <NeedsNetwork>
        <Button variant="outlined" onClick={show}>
          Create API token
        </Button>
      </NeedsNetwork>
      <DialogFrame
        open={open}
        title="Create API token"
        busy={call.busy}
        onClose={() => setOpen(false)}
      >
        {token ? (
          <DialogCopyResult
            label="API token"
            value={token}
            copyLabel="Copy API token"
            onDone={() => setOpen(false)}
          >
            Copy this token now: it will not be shown again. Send it as{' '}
            <code>Authorization: Bearer</code> to reach this team&apos;s sources
            and setup links, and keep it secret.
          </DialogCopyResult>
        ) : (
          <DialogForm
            busy={call.busy}
            error={call.error}
            submitLabel="Create token"
            busyLabel="Creating..."
            canSubmit={!nameError && !expiresError}
            onSubmit={create}
            onCancel={() => setOpen(false)}
          >
            <TextField
              label="Name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={name !== '' && nameError !== undefined}
              helperText={
                (name !== '' && nameError) || 'Say what will use it, e.g. CI.'
              }
              autoFocus
            />
            <TextField
              label="Expires on (optional)"
              type="date"
              value={expires}
              onChange={(e) => setExpires(e.target.value)}
              error={expiresError !== undefined}
              helperText={expiresError ?? 'Empty: it never expires.'}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          </DialogForm>
        )}
      </DialogFrame>
    </>
  )
}
