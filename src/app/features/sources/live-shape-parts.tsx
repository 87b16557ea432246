// The pieces of one live shape that the table and the phone's list both show: its table with
// its handle (what clients see as `electric-handle`), its where clause with its params, its
// times, and its delete.
import { Box, Button, Typography } from '@mui/material'
import type { LiveShape } from '../../../shared/entities.ts'
import type { LiveShapeWithFigures } from '../../db/tab/figure-types.ts'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { EventTime } from './event-time.tsx'
import { shapeParamsText, shapeTableName } from './live-shape-format.ts'

/** What the table and the list are given: the shapes (undefined: not read yet), the delete. */
export type LiveShapesProps = {
  shapes: LiveShapeWithFigures[] | undefined
  onDelete: (shape: LiveShape) => void
  onInspect: (shape: LiveShape) => void
}

// Long names, handles and clauses wrap where they must, not at every character.
const mono = { fontFamily: 'monospace', overflowWrap: 'break-word' } as const

export function ShapeTable({ shape }: { shape: LiveShape }) {
  return (
    <>
      <Typography variant="body2" sx={{ ...mono, fontWeight: 600 }}>
        {shapeTableName(shape)}
      </Typography>
      <Typography variant="caption" color="text.secondary" sx={mono}>
        {shape.handle}
      </Typography>
    </>
  )
}

export function ShapeWhere({ shape }: { shape: LiveShape }) {
  if (shape.where_clause === null)
    return (
      <Typography variant="body2" color="text.secondary">
        All rows
      </Typography>
    )
  return (
    <>
      <Typography variant="body2" sx={mono}>
        {shape.where_clause}
      </Typography>
      {shapeParamsText(shape.params).map((param) => (
        <Typography
          key={param}
          variant="caption"
          color="text.secondary"
          component="div"
          sx={mono}
        >
          {param}
        </Typography>
      ))}
    </>
  )
}

export function LastRead({ shape }: { shape: LiveShape }) {
  return shape.last_read_at === null ? (
    <Box component="span" sx={{ color: 'text.secondary' }}>
      Not read yet
    </Box>
  ) : (
    <EventTime at={shape.last_read_at} />
  )
}

/** Inspect (the Shape Inspector) and Delete, side by side. */
export function ShapeActions(props: {
  shape: LiveShape
  onDelete: (shape: LiveShape) => void
  onInspect: (shape: LiveShape) => void
}) {
  return (
    <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
      <NeedsNetwork>
        <Button
          size="small"
          variant="outlined"
          aria-label={`Inspect shape ${props.shape.handle}`}
          onClick={() => props.onInspect(props.shape)}
        >
          Inspect
        </Button>
      </NeedsNetwork>
      <DeleteShapeButton {...props} />
    </Box>
  )
}

function DeleteShapeButton(props: {
  shape: LiveShape
  onDelete: (shape: LiveShape) => void
}) {
  return (
    <NeedsNetwork>
      <Button
        size="small"
        color="error"
        variant="outlined"
        aria-label={`Delete shape ${props.shape.handle}`}
        onClick={() => props.onDelete(props.shape)}
      >
        Delete
      </Button>
    </NeedsNetwork>
  )
}
