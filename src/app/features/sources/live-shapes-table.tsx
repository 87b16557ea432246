// The Live shapes table where there is room for its columns (live-shapes-section.tsx).
import { TableCell } from '@mui/material'
import { DataTable } from '../../components/data-table.tsx'
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

// The last, without a name, holds each shape's delete button.
const COLUMNS = [
  'Table',
  'Where',
  'Rows',
  'Log size',
  'Created',
  'Last read',
  '',
]

export function LiveShapesTable({ shapes, onDelete }: LiveShapesProps) {
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
          {/* Times may wrap (date, then time): seven columns need the room. */}
          <TableCell sx={{ minWidth: 110 }}>
            <EventTime at={shape.created_at} />
          </TableCell>
          <TableCell sx={{ minWidth: 110 }}>
            <LastRead shape={shape} />
          </TableCell>
          <TableCell align="right">
            <DeleteShapeButton shape={shape} onDelete={onDelete} />
          </TableCell>
        </>
      )}
    </DataTable>
  )
}
