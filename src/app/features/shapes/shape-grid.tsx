// The shape's rows in MUI X's free Data Grid (10 rows a page; columns at least 60 px,
// 150 by default, resizable; at most 65vh tall), each row with its table's own columns in the
// table's order.
import { Box } from '@mui/material'
import {
  DataGrid,
  type GridColDef,
  type GridPaginationModel,
} from '@mui/x-data-grid'
import { useMemo, useState } from 'react'
import {
  SHAPE_GRID_COLUMN_MIN_WIDTH_PX,
  SHAPE_GRID_COLUMN_WIDTH_PX,
  SHAPE_GRID_MAX_HEIGHT,
  SHAPE_GRID_PAGE_SIZE,
} from '../../../shared/constants.ts'
import { cellValue, type ShapeColumn } from './shape-columns.ts'
import type { GridRow } from './use-shape-rows.ts'

const FIRST_PAGE: GridPaginationModel = {
  page: 0,
  pageSize: SHAPE_GRID_PAGE_SIZE,
}

function gridColumns(columns: readonly ShapeColumn[]): GridColDef<GridRow>[] {
  return columns.map(({ name }) => ({
    field: name,
    headerName: name,
    minWidth: SHAPE_GRID_COLUMN_MIN_WIDTH_PX,
    width: SHAPE_GRID_COLUMN_WIDTH_PX,
    resizable: true,
    // Rows keep their values apart from the grid's own fields, so any column name is safe.
    valueGetter: (_value, row) => cellValue(row.values[name]),
  }))
}

export function ShapeGrid(props: {
  /** Another shape starts on its first page (the grid stays mounted across shapes). */
  shapeId: string
  columns: readonly ShapeColumn[]
  rows: readonly GridRow[]
}) {
  const columns = useMemo(() => gridColumns(props.columns), [props.columns])
  const [pagination, setPagination] = useState({
    shapeId: props.shapeId,
    model: FIRST_PAGE,
  })
  const model =
    pagination.shapeId === props.shapeId ? pagination.model : FIRST_PAGE
  return (
    // A column flex parent with a max height: the grid grows with its rows up to it.
    <Box
      component="section"
      aria-label="Shape rows"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        maxHeight: SHAPE_GRID_MAX_HEIGHT,
        width: '100%',
      }}
    >
      <DataGrid
        rows={props.rows}
        columns={columns}
        getRowId={(row) => row.key}
        paginationModel={model}
        onPaginationModelChange={(next) =>
          setPagination({ shapeId: props.shapeId, model: next })
        }
        pageSizeOptions={[SHAPE_GRID_PAGE_SIZE]}
        localeText={{ noRowsLabel: 'No data available' }}
        density="compact"
        disableRowSelectionOnClick
      />
    </Box>
  )
}
