// The explorer's main area: the chosen table, the where clause, what the
// request answered (a warning or an error), and the shape's rows with the code that syncs them,
// and a way into the Shape Inspector for the live shape behind them.
import { Alert, Box, Button, Stack, TextField, Typography } from '@mui/material'
import { Suspense, useState } from 'react'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import {
  ShapeInspectorDialog,
  type InspectedShape,
} from '../sources/inspector/shape-inspector-dialog.tsx'
import { LazyShapeGrid } from './lazy-shape-grid.tsx'
import type { ShapeColumn } from './shape-columns.ts'
import { rowCountWarning } from './shape-rules.ts'
import type { SnippetShape } from './snippets.ts'
import type { ShapeRequest } from './use-shape-request.ts'
import type { GridRow, ShapeRows } from './use-shape-rows.ts'
import { UseThisShape } from './use-this-shape.tsx'
import { WhereField } from './where-field.tsx'

export function ShapePanel(props: {
  /** Changes with the shape asked for: the where field's draft starts again from its clause. */
  shapeId: string
  tableLabel: string | null
  where: string
  lastWhere: string
  request: ShapeRequest
  rows: ShapeRows
  snippet: SnippetShape | null
  /** The source asked, for the Shape Inspector. */
  sourceId: string | null
  onSubmit: (where: string) => void
}) {
  const { request, rows } = props
  const [inspected, setInspected] = useState<InspectedShape | null>(null)
  const handle =
    request.kind === 'shape' && rows.kind === 'rows' ? rows.handle : null
  return (
    <Stack spacing={2}>
      <TextField
        size="small"
        label="Table"
        value={props.tableLabel ?? ''}
        placeholder="Choose a table"
        slotProps={{ htmlInput: { readOnly: true } }}
      />
      <WhereField
        shapeId={props.shapeId}
        asked={props.where}
        warned={request.kind === 'warning'}
        lastWhere={props.lastWhere}
        onSubmit={props.onSubmit}
      />
      {request.kind === 'warning' && (
        <Alert severity="warning">
          {rowCountWarning(
            props.tableLabel ?? '',
            props.where,
            request.count,
            request.estimate,
          )}
        </Alert>
      )}
      {request.kind === 'error' && (
        <Alert severity="error" sx={{ wordBreak: 'break-word' }}>
          {request.text}
        </Alert>
      )}
      {(request.kind === 'loading' ||
        (request.kind === 'shape' && rows.kind === 'loading')) && <Loading />}
      {request.kind === 'shape' && rows.kind === 'error' && (
        <Alert severity="error" sx={{ wordBreak: 'break-word' }}>
          {rows.text}
        </Alert>
      )}
      <Results
        shapeId={props.shapeId}
        shown={request.kind === 'shape' && rows.kind === 'rows' ? rows : null}
        snippet={props.snippet}
      />
      {handle && props.sourceId && (
        <NeedsNetwork>
          <Button
            variant="outlined"
            sx={{ alignSelf: 'flex-start' }}
            onClick={() =>
              props.sourceId &&
              setInspected({
                sourceId: props.sourceId,
                handle,
                name: props.tableLabel ?? '',
              })
            }
          >
            Inspect messages
          </Button>
        </NeedsNetwork>
      )}
      <ShapeInspectorDialog
        shape={inspected}
        onClose={() => setInspected(null)}
      />
    </Stack>
  )
}

const Loading = () => <Typography color="text.secondary">Loading...</Typography>

const NO_COLUMNS: ShapeColumn[] = []
const NO_ROWS: GridRow[] = []

// Out of the layout and of the accessibility tree, but laid out at the panel's width.
const HIDDEN = {
  position: 'absolute',
  insetInline: 0,
  top: 0,
  visibility: 'hidden',
  pointerEvents: 'none',
} as const

/**
 * The grid, and beside it the code that syncs its shape. The grid stays mounted while it has
 * nothing to show, hidden: mounting MUI's grid takes a few hundred ms on a busy 2-core machine,
 * which would otherwise come after a shape's rows have arrived.
 */
function Results(props: {
  shapeId: string
  shown: { columns: ShapeColumn[]; rows: GridRow[] } | null
  snippet: SnippetShape | null
}) {
  const { shown } = props
  return (
    <Box sx={{ position: 'relative' }}>
      <Stack
        direction={{ xs: 'column', xl: 'row' }}
        spacing={2}
        aria-hidden={shown ? undefined : true}
        sx={shown ? undefined : HIDDEN}
      >
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Suspense fallback={shown && <Loading />}>
            <LazyShapeGrid
              shapeId={props.shapeId}
              columns={shown?.columns ?? NO_COLUMNS}
              rows={shown?.rows ?? NO_ROWS}
            />
          </Suspense>
        </Box>
        {/* Beside the grid where the screen is wide enough for both, below it otherwise. */}
        {shown && props.snippet && (
          <Box sx={{ width: { xl: 460 }, flexShrink: 0, minWidth: 0 }}>
            <UseThisShape shape={props.snippet} />
          </Box>
        )}
      </Stack>
    </Box>
  )
}
