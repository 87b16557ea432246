// The Live shapes table where there is room for its columns (live-shapes-section.tsx).
import { TableCell } from '@mui/material'
import { DataTable } from '../../components/data-table.tsx'
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

// The last, without a name, holds each shape's delete button.
const COLUMNS = [
  'Table',
  'Where',
  'Rows',
  'Log size',
  'Clients',
  'Requests/min',
  'Bytes/min',
  'Changes/min',
  'Log entries',
  'Last rotation',
  'Created',
  'Last read',
  '',
]

export function LiveShapesTable({
  shapes,
  onDelete,
  onInspect,
}: LiveShapesProps) {
  return (
    <DataTable
      label="Live shapes"
      columns={COLUMNS}
      rows={shapes}
      rowKey={(shape) => shape.handle}
      empty="No live shapes"
    >
      {(shape) => (
        <>
          <TableCell sx={{ minWidth: 150 }}>
            <ShapeTable shape={shape} />
          </TableCell>
          <TableCell sx={{ minWidth: 200 }}>
            <ShapeWhere shape={shape} />
          </TableCell>
          <TableCell align="right">{formatRowCount(shape.row_count)}</TableCell>
          <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
            {formatBytes(shape.log_bytes)}
          </TableCell>
          <TableCell align="right">
            <ShapeClients shape={shape} />
          </TableCell>
          <TableCell align="right">
            {formatRate(shape.requests_per_minute)}
          </TableCell>
          <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
            {formatBytesShort(shape.bytes_per_minute)}
          </TableCell>
          <TableCell align="right">
            {formatRate(shape.changes_per_minute)}
          </TableCell>
          <TableCell align="right">
            <ShapeLogEntries shape={shape} />
          </TableCell>
          <TableCell sx={{ minWidth: 110 }}>
            <LastRotation shape={shape} />
          </TableCell>
          {/* Times may wrap (date, then time): thirteen columns need the room. */}
          <TableCell sx={{ minWidth: 110 }}>
            <EventTime at={shape.created_at} />
          </TableCell>
          <TableCell sx={{ minWidth: 110 }}>
            <LastRead shape={shape} />
          </TableCell>
          <TableCell align="right">
            <ShapeActions
              shape={shape}
              onDelete={onDelete}
              onInspect={onInspect}
            />
          </TableCell>
        </>
      )}
    </DataTable>
  )
}
