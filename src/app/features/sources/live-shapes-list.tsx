// The Live shapes where the table's columns do not fit (a phone, a narrow window): they would
// leave a where clause a few characters a line, so each shape is a block, its table and delete
// on top, its where clause and figures wrapping below (as the event log does on a phone,
// event-log-list.tsx).
import { Box, Paper, Stack, Typography } from '@mui/material'
import { EventTime } from './event-time.tsx'
import { formatBytes } from './format.ts'
import { formatRowCount } from './live-shape-format.ts'
import {
  DeleteShapeButton,
  LastRead,
  ShapeTable,
  ShapeWhere,
  type LiveShapesProps,
} from './live-shape-parts.tsx'

export function LiveShapesList({ shapes, onDelete }: LiveShapesProps) {
  return (
    <Paper variant="outlined">
      <Box
        component="ul"
        aria-label="Live shapes"
        sx={{ m: 0, p: 0, listStyle: 'none' }}
      >
        {shapes?.length === 0 && (
          <Box component="li" sx={{ p: 2 }}>
            <Typography variant="body2" color="text.secondary">
              No live shapes
            </Typography>
          </Box>
        )}
        {(shapes ?? []).map((shape) => (
          <Stack
            key={shape.handle}
            component="li"
            spacing={1}
            sx={{ p: 2, '& + &': { borderTop: 1, borderColor: 'divider' } }}
          >
            <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <ShapeTable shape={shape} />
              </Box>
              <DeleteShapeButton shape={shape} onDelete={onDelete} />
            </Box>
            <Box>
              <ShapeWhere shape={shape} />
            </Box>
            <Box
              component="dl"
              sx={{
                m: 0,
                display: 'grid',
                gridTemplateColumns: 'auto 1fr',
                columnGap: 2,
                '& dd': { m: 0 },
                '& dt': { color: 'text.secondary' },
                typography: 'body2',
              }}
            >
              <dt>Rows</dt>
              <dd>{formatRowCount(shape.row_count)}</dd>
              <dt>Log size</dt>
              <dd>{formatBytes(shape.log_bytes)}</dd>
              <dt>Created</dt>
              <dd>
                <EventTime at={shape.created_at} />
              </dd>
              <dt>Last read</dt>
              <dd>
                <LastRead shape={shape} />
              </dd>
            </Box>
          </Stack>
        ))}
      </Box>
    </Paper>
  )
}
