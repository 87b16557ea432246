// The source page's secret and how apps use it: rotating it (the previous one keeps working
// through its grace, shown here with its end, which can be brought forward), and the code a
// proxy needs, written the way Electric Cloud's docs write it so a move changes one host name.
import { Alert, Button, Stack, Typography } from '@mui/material'
import { useEffect, useState } from 'react'
import type { Source } from '../../../shared/entities.ts'
import { API_MOUNTS } from '../../../shared/api-routes.ts'
import { maskSecret } from '../../../shared/masking.ts'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { PanelSection } from '../../components/panel-section.tsx'
import { SnippetTabs } from '../../components/snippet-tabs.tsx'
import { useToast } from '../../components/toast.tsx'
import { useServerCall } from '../../components/use-server-call.ts'
import { useSyncedWrites } from '../../db/tab/hooks.ts'
import { formatDateTime } from './format.ts'
import { proxySnippets } from './proxy-snippets.ts'
import { codeMessage, endSecretGrace, rotateSecret } from './source-api.ts'

/** Longest a timer may be set for (setTimeout's signed 32 bits). */
const MAX_TIMER_MS = 2 ** 31 - 1

/** Whether `until` is still ahead: read at mount, and again once it passes. */
function useStillAhead(until: string | null): boolean {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (until === null) return
    const left = Date.parse(until) - Date.now()
    if (left <= 0) return
    const timer = setTimeout(
      () => setNow(Date.now()),
      Math.min(left + 50, MAX_TIMER_MS),
    )
    return () => clearTimeout(timer)
  }, [until, now])
  return until !== null && Date.parse(until) > now
}

export function SourceSecret({ source }: { source: Source }) {
  const [open, setOpen] = useState<'rotate' | 'end' | null>(null)
  const call = useServerCall()
  const toast = useToast()
  const { awaitSourceSecret, awaitSecretGraceEnded } = useSyncedWrites()
  const previous = source.previous_source_secret
  const until = source.previous_secret_valid_until
  const inGrace = useStillAhead(until) && previous !== null

  const rotate = () =>
    call.run(async () => {
      const answer = await rotateSecret(source.id)
      await awaitSourceSecret(source.id, answer.source_secret, answer.txid)
      setOpen(null)
      toast(
        `Secret rotated. The previous one works until ${formatDateTime(answer.previous_valid_until)}.`,
        'success',
      )
    }, codeMessage)

  const endGrace = () =>
    call.run(async () => {
      const { txid } = await endSecretGrace(source.id)
      await awaitSecretGraceEnded(source.id, txid)
      setOpen(null)
      toast('The previous secret no longer works.', 'success')
    }, codeMessage)

  const shapeUrl = new URL(API_MOUNTS.shape, location.origin).toString()
  const snippet = { shapeUrl, sourceId: source.id }
  const dialog = {
    busy: call.busy,
    error: call.error,
    onClose: () => setOpen(null),
  }
  return (
    <PanelSection title="Secret and proxy" maxWidth={720}>
      <Stack spacing={2}>
        <Typography variant="body2" color="text.secondary">
          Apps reach this source through a proxy of theirs that adds its id and
          secret to every shape request, as with Electric Cloud: only the
          origin&apos;s host differs.
        </Typography>
        {inGrace && until && (
          <Alert
            severity="info"
            role="status"
            action={
              !source.deleted_at && (
                <NeedsNetwork>
                  <Button
                    color="inherit"
                    size="small"
                    onClick={() => {
                      call.clearError()
                      setOpen('end')
                    }}
                  >
                    End grace now
                  </Button>
                </NeedsNetwork>
              )
            }
          >
            {`The previous secret ${maskSecret(previous)} keeps working until ${formatDateTime(until)}.`}
          </Alert>
        )}
        {!source.deleted_at && (
          <Stack direction="row">
            <NeedsNetwork>
              <Button
                variant="outlined"
                onClick={() => {
                  call.clearError()
                  setOpen('rotate')
                }}
              >
                Rotate secret
              </Button>
            </NeedsNetwork>
          </Stack>
        )}
        <SnippetTabs
          whole={proxySnippets({ ...snippet, secret: source.source_secret })}
          shown={proxySnippets({
            ...snippet,
            secret: maskSecret(source.source_secret),
          })}
        />
      </Stack>

      <ConfirmDialog
        {...dialog}
        open={open === 'rotate'}
        title="Rotate secret?"
        confirmLabel="Rotate"
        busyLabel="Rotating..."
        onConfirm={() => void rotate()}
      >
        <Typography>
          A new secret is issued now. The current one keeps working for a grace
          period (24 hours unless the server sets another), so your apps can
          move to the new one without downtime; then it stops working.
        </Typography>
      </ConfirmDialog>

      <ConfirmDialog
        {...dialog}
        open={open === 'end'}
        title="End the grace now?"
        confirmLabel="End grace"
        busyLabel="Ending..."
        onConfirm={() => void endGrace()}
      >
        <Typography>
          The previous secret stops working at once: apps still sending it get
          401 until they use the current one.
        </Typography>
      </ConfirmDialog>
    </PanelSection>
  )
}
