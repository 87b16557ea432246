// The figures of one live shape that the table and the phone's list both show: its clients
// (stalled requests flagged: they hold memory and emit nothing), its log against its rows (what
// a new client reads beyond the rows) and its last rotation with why.
import { Box, Chip, Typography } from '@mui/material'
import type { LiveShapeWithFigures } from '../../db/tab/figure-types.ts'
import { EventTime } from './event-time.tsx'
import { formatRowCount } from './live-shape-format.ts'
import { causeLabel } from './metrics/figure-format.ts'

type Props = { shape: LiveShapeWithFigures }

export function ShapeClients({ shape }: Props) {
  return (
    <Box
      component="span"
      sx={{
        display: 'inline-flex',
        gap: 1,
        alignItems: 'center',
        flexWrap: 'wrap',
      }}
    >
      {formatRowCount(shape.clients)}
      {shape.stalled_requests > 0 && (
        <Chip
          size="small"
          color="warning"
          label={`${formatRowCount(shape.stalled_requests)} stalled`}
        />
      )}
    </Box>
  )
}

export function ShapeLogEntries({ shape }: Props) {
  const beyond = shape.log_entries - shape.row_count
  return (
    <>
      {formatRowCount(shape.log_entries)}
      {beyond > 0 && (
        <Typography variant="caption" color="text.secondary" component="div">
          {`${formatRowCount(beyond)} beyond rows`}
        </Typography>
      )}
    </>
  )
}

export function LastRotation({ shape }: Props) {
  if (shape.last_rotation_at === null)
    return (
      <Box component="span" sx={{ color: 'text.secondary' }}>
        None
      </Box>
    )
  return (
    <>
      {shape.last_rotation_cause
        ? causeLabel(shape.last_rotation_cause)
        : 'Rotated'}
      <Typography variant="caption" color="text.secondary" component="div">
        <EventTime at={shape.last_rotation_at} />
      </Typography>
    </>
  )
}
