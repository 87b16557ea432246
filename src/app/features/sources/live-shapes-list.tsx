// The Live shapes where the table's columns do not fit (a phone, a narrow window): they would
// leave a where clause a few characters a line, so each shape is a block, its table and delete
// on top, its where clause and figures wrapping below.
import { Box } from '@mui/material'
import { BlockList } from '../../components/block-list.tsx'
import { EventTime } from './event-time.tsx'
import { formatBytes } from './format.ts'
import { formatRowCount } from './live-shape-format.ts'
import {
  LastRotation,
  ShapeClients,
  ShapeLogEntries,
} from './live-shape-figures.tsx'
import { formatBytesShort, formatRate } from './metrics/figure-format.ts'
import {
  LastRead,
  ShapeActions,
  ShapeTable,
  ShapeWhere,
  type LiveShapesProps,
} from './live-shape-parts.tsx'

export function LiveShapesList({
  shapes,
  onDelete,
  onInspect,
}: LiveShapesProps) {
  return (
    <BlockList
      label="Live shapes"
      items={shapes}
      empty="No live shapes"
      itemKey={(shape) => shape.handle}
      spacing={1}
    >
      {(shape) => (
        <>
          <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <ShapeTable shape={shape} />
            </Box>
            <ShapeActions
              shape={shape}
              onDelete={onDelete}
              onInspect={onInspect}
            />
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
            <dt>Clients</dt>
            <dd>
              <ShapeClients shape={shape} />
            </dd>
            <dt>Requests/min</dt>
            <dd>{formatRate(shape.requests_per_minute)}</dd>
            <dt>Bytes/min</dt>
            <dd>{formatBytesShort(shape.bytes_per_minute)}</dd>
            <dt>Changes/min</dt>
            <dd>{formatRate(shape.changes_per_minute)}</dd>
            <dt>Log entries</dt>
            <dd>
              <ShapeLogEntries shape={shape} />
            </dd>
            <dt>Last rotation</dt>
            <dd>
              <LastRotation shape={shape} />
            </dd>
            <dt>Created</dt>
            <dd>
              <EventTime at={shape.created_at} />
            </dd>
            <dt>Last read</dt>
            <dd>
              <LastRead shape={shape} />
            </dd>
          </Box>
        </>
      )}
    </BlockList>
  )
}
