// The source page's Invalidations: every rotation of a shape, newest first, with why, which
// shape, how many clients were streaming it and what they re-read. Bounded: 50 at a time, more
// on asking (the server keeps a source's newest 1,000).
import { Box, Button, TableCell, Typography } from '@mui/material'
import { useState } from 'react'
import type { Source } from '../../../../shared/entities.ts'
import { BlockList, BlockLine } from '../../../components/block-list.tsx'
import { DataTable } from '../../../components/data-table.tsx'
import { useWideScreen } from '../../../components/use-wide-screen.ts'
import { useSourceInvalidations } from '../../../db/tab/figure-hooks.ts'
import type { Invalidation } from '../../../db/tab/figure-types.ts'
import { EventTime } from '../event-time.tsx'
import { formatBytes } from '../format.ts'
import { shapeTableName } from '../live-shape-format.ts'
import { causeLabel } from './figure-format.ts'

const PAGE = 50
const LABEL = 'Invalidations'
const EMPTY = 'No shape has been rotated yet.'

export function InvalidationLog({ source }: { source: Source }) {
  const [limit, setLimit] = useState(PAGE)
  const rows = useSourceInvalidations(source.id, limit)
  const wide = useWideScreen()
  return (
    <section aria-label={LABEL}>
      <Typography variant="h5" component="h2" sx={{ mb: 1 }}>
        {LABEL}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Each time a shape was rotated, its clients refetched it from a fresh
        snapshot.
      </Typography>
      {wide ? (
        <InvalidationTable rows={rows} />
      ) : (
        <InvalidationList rows={rows} />
      )}
      {rows?.length === limit && (
        <Box sx={{ mt: 1 }}>
          <Button size="small" onClick={() => setLimit(limit + PAGE)}>
            Show more
          </Button>
        </Box>
      )}
    </section>
  )
}

type RowsProps = { rows: Invalidation[] | undefined }

const mono = { fontFamily: 'monospace', overflowWrap: 'anywhere' } as const

function ShapeText({ row }: { row: Invalidation }) {
  return (
    <Box component="span" sx={mono}>
      {shapeTableName(row)}
      {row.where_clause !== null && ` where ${row.where_clause}`}
    </Box>
  )
}

function InvalidationTable({ rows }: RowsProps) {
  return (
    <DataTable
      label={LABEL}
      columns={['Cause', 'Shape', 'Clients', 'Re-read', 'Time']}
      rows={rows}
      rowKey={(row) => row.id}
      empty={EMPTY}
    >
      {(row) => (
        <>
          <TableCell>{causeLabel(row.cause)}</TableCell>
          <TableCell>
            <ShapeText row={row} />
          </TableCell>
          <TableCell align="right">{row.clients}</TableCell>
          <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
            {formatBytes(row.bytes_reread)}
          </TableCell>
          <TableCell sx={{ minWidth: 110 }}>
            <EventTime at={row.at} />
          </TableCell>
        </>
      )}
    </DataTable>
  )
}

function InvalidationList({ rows }: RowsProps) {
  return (
    <BlockList
      label={LABEL}
      items={rows}
      empty={EMPTY}
      itemKey={(row) => row.id}
    >
      {(row) => (
        <>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {causeLabel(row.cause)}
          </Typography>
          <Typography variant="body2">
            <ShapeText row={row} />
          </Typography>
          <BlockLine label="Clients">{row.clients}</BlockLine>
          <BlockLine label="Re-read">{formatBytes(row.bytes_reread)}</BlockLine>
          <Typography variant="body2" color="text.secondary">
            <EventTime at={row.at} />
          </Typography>
        </>
      )}
    </BlockList>
  )
}
