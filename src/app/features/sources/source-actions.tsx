// The source page's actions: rename, clear the cache, delete, or forget a source whose deletion
// failed. Each asks first; delete and forget then wait until the synced row shows the outcome: gone
// (leave for /sources), removal failed, or still being removed (say which).
import { Alert, Button, Stack, TextField, Typography } from '@mui/material'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import type { Source, SourceEventLog } from '../../../shared/entities.ts'
import { sourceLifecycle } from '../../../shared/source-display.ts'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { useToast } from '../../components/toast.tsx'
import { useServerCall } from '../../components/use-server-call.ts'
import { TxidTimeoutError } from '../../db/shared/await-txid.ts'
import { useSyncedWrites } from '../../db/tab/hooks.ts'
import { ForgetWarning } from './forget-warning.tsx'
import { EditSourceProject } from './edit-source-project.tsx'
import { RenameSource } from './rename-source.tsx'
import { RotationImpact } from './metrics/rotation-impact.tsx'
import { reportedSlot } from './slot-cleanup.ts'
import { clearSourceCache, codeMessage, deleteSource } from './source-api.ts'

type DialogName = 'clear' | 'delete' | 'forget'

const DELETION_PENDING =
  'Deletion requested. The source disappears once its replication slot and publication have been removed from your database.'
const DELETION_FAILED =
  "The source could not be deleted: its replication slot and publication could not be removed from your database (the reason is below). 'Retry clear cache' tries again; 'Forget source' removes only its record."

export function SourceActions(props: {
  source: Source
  logs: SourceEventLog[] | undefined
}) {
  const { source } = props
  const [open, setOpen] = useState<DialogName | null>(null)
  const call = useServerCall()
  const [notice, setNotice] = useState<string | null>(null)
  // Set once this page's deletion has synced but the source stays: what the page then says
  // follows the live row, so a removal that fails after the wait still reads as failed.
  const [deleting, setDeleting] = useState(false)
  const [typedId, setTypedId] = useState('')
  const { awaitSourceRemoval, awaitSourceForgotten } = useSyncedWrites()
  const navigate = useNavigate()
  const toast = useToast()

  const lifecycle = sourceLifecycle(source)
  const failed = lifecycle === 'deletion_failed'
  const deletionPending = lifecycle === 'deletion_pending'

  const show = (name: DialogName) => {
    call.clearError()
    setTypedId('')
    setOpen(name)
  }

  const clearCache = () =>
    call.run(async () => {
      await clearSourceCache(source.id)
      setOpen(null)
      toast('Cache cleared: shapes will be re-created.', 'success')
    }, codeMessage)

  const remove = (force: boolean) =>
    call.run(async () => {
      try {
        const { txid } = await deleteSource(source.id, force)
        const outcome = force
          ? (await awaitSourceForgotten(source.id, txid), 'gone')
          : await awaitSourceRemoval(source.id, txid)
        if (outcome === 'gone') {
          await navigate({ to: '/sources' })
          return
        }
        setOpen(null)
        setNotice(null)
        setDeleting(true)
      } catch (e) {
        // Accepted by the server but not synced yet: not a failure to retry.
        if (!(e instanceof TxidTimeoutError)) throw e
        setOpen(null)
        setNotice(e.message)
        setDeleting(true)
      }
    }, codeMessage)

  const dialogState = {
    busy: call.busy,
    error: call.error,
    onClose: () => setOpen(null),
  }

  return (
    <Stack spacing={2}>
      {/* Wraps: four buttons are wider than a phone. */}
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <RenameSource source={source} />
        <EditSourceProject source={source} />
        <NeedsNetwork>
          <Button variant="outlined" onClick={() => show('clear')}>
            {source.deleted_at ? 'Retry clear cache' : 'Clear cache'}
          </Button>
        </NeedsNetwork>
        <NeedsNetwork>
          <Button
            variant="outlined"
            color="error"
            disabled={deletionPending}
            onClick={() => show(failed ? 'forget' : 'delete')}
          >
            {failed ? 'Forget source' : 'Delete'}
          </Button>
        </NeedsNetwork>
      </Stack>
      {deleting && failed && (
        <Alert severity="error" role="alert" onClose={() => setDeleting(false)}>
          {DELETION_FAILED}
        </Alert>
      )}
      {deleting && deletionPending && (
        <Alert severity="info" role="status" onClose={() => setDeleting(false)}>
          {DELETION_PENDING}
        </Alert>
      )}
      {/* Outdated once the deletion has synced after all. */}
      {notice && !(deleting && lifecycle !== 'live') && (
        <Alert severity="info" role="status" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}

      <ConfirmDialog
        {...dialogState}
        open={open === 'clear'}
        title="Clear cache?"
        confirmLabel="Clear cache"
        busyLabel="Clearing..."
        onConfirm={() => void clearCache()}
      >
        <Typography>
          Clearing the cache forces every shape of this source to be re-created.
          Clients refetch their data, which can spike queries on your database.
        </Typography>
        <RotationImpact sourceId={source.id} />
      </ConfirmDialog>

      <ConfirmDialog
        {...dialogState}
        open={open === 'delete'}
        title="Delete source?"
        confirmLabel="Delete"
        busyLabel="Deleting..."
        onConfirm={() => void remove(false)}
      >
        <Typography>
          Sluice stops syncing this source, removes its replication slot and
          publication from your database, then deletes the source. Apps using
          its shapes stop receiving changes.
        </Typography>
        <RotationImpact sourceId={source.id} />
      </ConfirmDialog>

      <ConfirmDialog
        {...dialogState}
        open={open === 'forget'}
        title="Forget source?"
        confirmLabel="Forget source"
        busyLabel="Forgetting..."
        canConfirm={typedId === source.id}
        onConfirm={() => void remove(true)}
      >
        <ForgetWarning names={reportedSlot(props.logs)} />
        <TextField
          label="Type the source id to confirm"
          value={typedId}
          onChange={(e) => setTypedId(e.target.value)}
          placeholder={source.id}
          autoComplete="off"
          spellCheck={false}
          fullWidth
        />
      </ConfirmDialog>
    </Stack>
  )
}
