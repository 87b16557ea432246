// The explorer's main area (spec §2, §4, §8): the chosen table, the where clause, what the
// request answered (a warning or an error), and the shape's rows with the code that syncs them.
import { Alert, Box, Stack, TextField, Typography } from '@mui/material'
import { Suspense, type ReactNode } from 'react'
import { LazyShapeGrid } from './lazy-shape-grid.tsx'
import { rowCountWarning } from './shape-rules.ts'
import type { SnippetShape } from './snippets.ts'
import type { ShapeRequest } from './use-shape-request.ts'
import type { ShapeRows } from './use-shape-rows.ts'
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
  onSubmit: (where: string) => void
}) {
  const { request } = props
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
          {rowCountWarning(props.tableLabel ?? '', props.where, request.count)}
        </Alert>
      )}
      {request.kind === 'error' && (
        <Alert severity="error" sx={{ wordBreak: 'break-word' }}>
          {request.text}
        </Alert>
      )}
      {request.kind === 'loading' && <Loading />}
      {request.kind === 'shape' && (
        <Results rows={props.rows} snippet={props.snippet} />
      )}
    </Stack>
  )
}

const Loading = () => <Typography color="text.secondary">Loading...</Typography>

function Results(props: { rows: ShapeRows; snippet: SnippetShape | null }) {
  const { rows } = props
  let grid: ReactNode
  if (rows.kind === 'loading') grid = <Loading />
  else if (rows.kind === 'error')
    grid = (
      <Alert severity="error" sx={{ wordBreak: 'break-word' }}>
        {rows.text}
      </Alert>
    )
  else
    grid = (
      <Suspense fallback={<Loading />}>
        <LazyShapeGrid columns={rows.columns} rows={rows.rows} />
      </Suspense>
    )
  // Beside the grid where the screen is wide enough for both, below it otherwise.
  return (
    <Stack direction={{ xs: 'column', xl: 'row' }} spacing={2}>
      <Box sx={{ flex: 1, minWidth: 0 }}>{grid}</Box>
      {rows.kind === 'rows' && props.snippet && (
        <Box sx={{ width: { xl: 460 }, flexShrink: 0, minWidth: 0 }}>
          <UseThisShape shape={props.snippet} />
        </Box>
      )}
    </Stack>
  )
}
