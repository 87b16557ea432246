// The source page's Live shapes (issue 15, beyond the spec): the shapes the engine holds for
// this source, live from the local store, as a table where there is room for its seven columns
// and one block per shape below that (phones, and windows too narrow beside the sidebar). Deleting one rotates it, after a confirm
// that says what that does, then waits until its row has left the synced store.
import { Typography } from '@mui/material'
import { useState } from 'react'
import { LIVE_SHAPES_TABLE_BREAKPOINT_PX } from '../../../shared/constants.ts'
import type { LiveShape, Source } from '../../../shared/entities.ts'
import { useToast } from '../../components/toast.tsx'
import { TxidTimeoutError } from '../../db/shared/await-txid.ts'
import { useSourceLiveShapes, useSyncedWrites } from '../../db/tab/hooks.ts'
import { ConfirmDialog } from './confirm-dialog.tsx'
import { shapeTableName } from './live-shape-format.ts'
import { LiveShapesList } from './live-shapes-list.tsx'
import { LiveShapesTable } from './live-shapes-table.tsx'
import { codeMessage, deleteLiveShape } from './source-api.ts'
import { useWideScreen } from '../../components/use-wide-screen.ts'

export function LiveShapesSection({ source }: { source: Source }) {
  const shapes = useSourceLiveShapes(source.id)
  const wide = useWideScreen(LIVE_SHAPES_TABLE_BREAKPOINT_PX)
  const [deleting, setDeleting] = useState<LiveShape | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const { awaitShapeDeleted } = useSyncedWrites()
  const toast = useToast()

  const ask = (shape: LiveShape) => {
    setError(null)
    setDeleting(shape)
  }

  const remove = async (shape: LiveShape) => {
    setBusy(true)
    setError(null)
    try {
      const { txid } = await deleteLiveShape(source.id, shape.handle)
      await awaitShapeDeleted(source.id, shape.handle, txid)
      setDeleting(null)
      toast('Shape deleted: its clients refetch a fresh snapshot.', 'success')
    } catch (e) {
      // Rotated by the server, only not synced here yet: not a failure to retry.
      if (e instanceof TxidTimeoutError) {
        setDeleting(null)
        toast(e.message, 'info')
      } else setError(codeMessage(e))
    } finally {
      setBusy(false)
    }
  }

  const rows = { shapes, onDelete: ask }
  return (
    <section aria-label="Live shapes">
      <Typography variant="h5" component="h2" sx={{ mb: 1 }}>
        Live shapes
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        The shapes Sluice holds for this source, as apps have asked for them.
      </Typography>
      {wide ? <LiveShapesTable {...rows} /> : <LiveShapesList {...rows} />}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete shape?"
        confirmLabel="Delete"
        busyLabel="Deleting..."
        busy={busy}
        error={error}
        onConfirm={() => deleting && void remove(deleting)}
        onClose={() => setDeleting(null)}
      >
        <Typography>
          Deleting rotates the shape of{' '}
          <strong>{deleting && shapeTableName(deleting)}</strong>: Sluice drops
          its log, and every client syncing it gets a 409 and refetches a fresh
          snapshot from your database under a new handle. Many clients
          refetching at once can spike queries on your database.
        </Typography>
      </ConfirmDialog>
    </section>
  )
}
