// The dashboard's tables: small, in an outlined paper, a row of column names, one row per item,
// and where the list may be empty a line across the table saying so. block-list.tsx is the
// same list for a screen too narrow for the columns.
import {
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  type SxProps,
  type Theme,
} from '@mui/material'
import type { ReactNode } from 'react'

export function DataTable<T>(props: {
  /** The table's accessible name. */
  label?: string
  /** The column names ('' for one without, such as the actions'); none: a table of labelled rows. */
  columns?: string[]
  /** undefined while loading: no rows yet. */
  rows: T[] | undefined
  rowKey: (row: T) => string
  /** Shown across the table when there are no rows; without it the table shows its head only. */
  empty?: string
  sx?: SxProps<Theme>
  /** A row's cells. */
  children: (row: T) => ReactNode
}) {
  const { columns } = props
  return (
    <TableContainer component={Paper} variant="outlined" sx={props.sx}>
      <Table size="small" aria-label={props.label}>
        {columns && (
          <TableHead>
            <TableRow>
              {columns.map((name, i) => (
                <TableCell key={i}>{name}</TableCell>
              ))}
            </TableRow>
          </TableHead>
        )}
        <TableBody>
          {props.empty !== undefined && props.rows?.length === 0 && (
            <TableRow>
              <TableCell colSpan={columns?.length}>
                <Typography variant="body2" color="text.secondary">
                  {props.empty}
                </Typography>
              </TableCell>
            </TableRow>
          )}
          {(props.rows ?? []).map((row) => (
            <TableRow key={props.rowKey(row)}>{props.children(row)}</TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  )
}
