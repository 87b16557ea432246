// The team page's 'Create setup link': a dialog with an optional preset region and
// the days the link lasts (default 7, at most 30); once the new form has synced here it shows
// the link to copy and hand to whoever owns the database.
import { Button, MenuItem, TextField } from '@mui/material'
import { useState } from 'react'
import {
  SETUP_FORM_DEFAULT_EXPIRY_DAYS,
  SETUP_FORM_MAX_EXPIRY_DAYS,
} from '../../../shared/constants.ts'
import {
  expiresInDaysSchema,
  SETUP_FORM_REGIONS,
} from '../../../shared/setup-forms.ts'
import type { Region } from '../../../shared/sources.ts'
import { DialogCopyResult } from '../../components/dialog-copy-result.tsx'
import { DialogForm } from '../../components/dialog-form.tsx'
import { DialogFrame } from '../../components/dialog-frame.tsx'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { messageOf, useServerCall } from '../../components/use-server-call.ts'
import { useSyncedWrites } from '../../db/tab/hooks.ts'
import { createSetupForm } from './setup-forms-api.ts'

// The select's value for "no preset": the visitor chooses.
const ANY = 'any'

export function CreateSetupLink({ teamId }: { teamId: string }) {
  const [open, setOpen] = useState(false)
  const [region, setRegion] = useState<Region | typeof ANY>(ANY)
  const [days, setDays] = useState(String(SETUP_FORM_DEFAULT_EXPIRY_DAYS))
  const call = useServerCall()
  const [link, setLink] = useState<string | null>(null)
  const { awaitCreated } = useSyncedWrites()

  const parsedDays = expiresInDaysSchema.safeParse(Number(days))
  const daysError = parsedDays.success
    ? null
    : `Enter a whole number of days from 1 to ${SETUP_FORM_MAX_EXPIRY_DAYS}`

  const show = () => {
    setRegion(ANY)
    setDays(String(SETUP_FORM_DEFAULT_EXPIRY_DAYS))
    call.clearError()
    setLink(null)
    setOpen(true)
  }

  const create = () => {
    if (!parsedDays.success) return
    void call.run(
      async () => {
        const created = await createSetupForm(teamId, {
          region: region === ANY ? null : region,
          expires_in_days: parsedDays.data,
        })
        await awaitCreated('source_setup_forms', created.id, created.txid)
        setLink(created.url)
      },
      (e) => `Failed to create setup link: ${messageOf(e)}`,
    )
  }

  return (
    <>
      <NeedsNetwork>
        <Button variant="outlined" onClick={show}>
          Create setup link
        </Button>
      </NeedsNetwork>
      <DialogFrame
        open={open}
        title="Create setup link"
        busy={call.busy}
        onClose={() => setOpen(false)}
      >
        {link ? (
          <DialogCopyResult
            label="Setup link"
            value={link}
            copyLabel="Copy setup link"
            onDone={() => setOpen(false)}
          >
            Send this link to whoever owns the database. It adds one source to
            this team, once; no sign-in is needed.
          </DialogCopyResult>
        ) : (
          <DialogForm
            busy={call.busy}
            error={call.error}
            submitLabel="Create link"
            busyLabel="Creating..."
            canSubmit={daysError === null}
            onSubmit={create}
            onCancel={() => setOpen(false)}
          >
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
          </DialogForm>
        )}
      </DialogFrame>
    </>
  )
}
