// The source page's Live shapes: the shapes the engine holds for this source with their figures,
// live from the local store (newest first, or hottest first on asking), as a table where there is
// room for its columns and one block per shape below that (phones, and windows too narrow beside
// the sidebar). Inspect opens the Shape Inspector on it; deleting one rotates it, after a confirm
// that says what that does, then waits until its row has left the synced store.
import { Box, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material'
import { useState } from 'react'
import { LIVE_SHAPES_TABLE_BREAKPOINT_PX } from '../../../shared/constants.ts'
import type { LiveShape, Source } from '../../../shared/entities.ts'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { useToast } from '../../components/toast.tsx'
import { useConfirmedAction } from '../../components/use-confirmed-action.ts'
import { TxidTimeoutError } from '../../db/shared/await-txid.ts'
import { useSourceLiveShapes, useSyncedWrites } from '../../db/tab/hooks.ts'
import {
  orderShapes,
  shapeTableName,
  type ShapeOrder,
} from './live-shape-format.ts'
import {
  ShapeInspectorDialog,
  type InspectedShape,
} from './inspector/shape-inspector-dialog.tsx'
import { LiveShapesList } from './live-shapes-list.tsx'
import { LiveShapesTable } from './live-shapes-table.tsx'
import { codeMessage, deleteLiveShape } from './source-api.ts'
import { useWideScreen } from '../../components/use-wide-screen.ts'

export function LiveShapesSection({ source }: { source: Source }) {
  const [order, setOrder] = useState<ShapeOrder>('newest')
  const stored = useSourceLiveShapes(source.id)
  const shapes = stored && orderShapes(stored, order)
  const wide = useWideScreen(LIVE_SHAPES_TABLE_BREAKPOINT_PX)
  const { awaitShapeDeleted } = useSyncedWrites()
  const toast = useToast()
  const removal = useConfirmedAction(async (shape: LiveShape) => {
    try {
      const { txid } = await deleteLiveShape(source.id, shape.handle)
      await awaitShapeDeleted(source.id, shape.handle, txid)
      toast('Shape deleted: its clients refetch a fresh snapshot.', 'success')
    } catch (e) {
      // Rotated by the server, only not synced here yet: not a failure to retry.
      if (!(e instanceof TxidTimeoutError)) throw e
      toast(e.message, 'info')
    }
  }, codeMessage)

  const [inspected, setInspected] = useState<InspectedShape | null>(null)
  const inspect = (shape: LiveShape) =>
    setInspected({
      sourceId: source.id,
      handle: shape.handle,
      name: shapeTableName(shape),
    })
  const rows = { shapes, onDelete: removal.ask, onInspect: inspect }
  return (
    <section aria-label="Live shapes">
      <Typography variant="h5" component="h2" sx={{ mb: 1 }}>
        Live shapes
      </Typography>
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 1,
          alignItems: 'center',
          justifyContent: 'space-between',
          mb: 2,
        }}
      >
        <Typography variant="body2" color="text.secondary">
          The shapes Sluice holds for this source, as apps have asked for them.
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={order}
          aria-label="Order shapes by"
          onChange={(_, value: ShapeOrder | null) => value && setOrder(value)}
        >
          <ToggleButton value="newest">Newest</ToggleButton>
          <ToggleButton value="bytes">Bytes/min</ToggleButton>
          <ToggleButton value="clients">Clients</ToggleButton>
        </ToggleButtonGroup>
      </Box>
      {wide ? <LiveShapesTable {...rows} /> : <LiveShapesList {...rows} />}
      <ShapeInspectorDialog
        shape={inspected}
        onClose={() => setInspected(null)}
      />
      <ConfirmDialog
        {...removal.dialog}
        title="Delete shape?"
        confirmLabel="Delete"
        busyLabel="Deleting..."
      >
        <Typography>
          Deleting rotates the shape of{' '}
          <strong>{removal.asking && shapeTableName(removal.asking)}</strong>:
          Sluice drops its log, and every client syncing it gets a 409 and
          refetches a fresh snapshot from your database under a new handle. Many
          clients refetching at once can spike queries on your database.
        </Typography>
      </ConfirmDialog>
    </section>
  )
}
