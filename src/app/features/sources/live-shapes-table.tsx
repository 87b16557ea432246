// The Live shapes table where there is room for its columns (live-shapes-section.tsx).
import {
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material'
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

const COLUMNS = ['Table', 'Where', 'Rows', 'Log size', 'Created', 'Last read']

export function LiveShapesTable({ shapes, onDelete }: LiveShapesProps) {
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label="Live shapes">
        <TableHead>
          <TableRow>
            {COLUMNS.map((name) => (
              <TableCell key={name}>{name}</TableCell>
            ))}
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {shapes?.length === 0 && (
            <TableRow>
              <TableCell colSpan={COLUMNS.length + 1}>
                <Typography variant="body2" color="text.secondary">
                  No live shapes
                </Typography>
              </TableCell>
            </TableRow>
          )}
          {(shapes ?? []).map((shape) => (
            <TableRow key={shape.handle}>
              <TableCell sx={{ minWidth: 150 }}>
                <ShapeTable shape={shape} />
              </TableCell>
              <TableCell sx={{ minWidth: 200 }}>
                <ShapeWhere shape={shape} />
              </TableCell>
              <TableCell align="right">
                {formatRowCount(shape.row_count)}
              </TableCell>
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
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  )
}
