// A source's event logs, newest first, live from the local store: a table where there is room for
// its columns, one block per event below the mobile breakpoint.
import { TableCell, Typography } from '@mui/material'
import type { SourceEventLog } from '../../../shared/entities.ts'
import { DataTable } from '../../components/data-table.tsx'
import { EventLogList } from './event-log-list.tsx'
import { EventDetails } from './event-details.tsx'
import { EventTime } from './event-time.tsx'
import { useWideScreen } from '../../components/use-wide-screen.ts'

/** `logs` newest first, as useSourceEventLogs reads them; undefined while not read yet. */
export function EventLogTable({
  logs,
}: {
  logs: SourceEventLog[] | undefined
}) {
  const wide = useWideScreen()
  return (
    <section aria-label="Event Logs">
      <Typography variant="h5" component="h2" sx={{ mb: 2 }}>
        Event Logs
      </Typography>
      {wide ? <EventTable logs={logs} /> : <EventLogList logs={logs} />}
    </section>
  )
}

function EventTable({ logs }: { logs: SourceEventLog[] | undefined }) {
  return (
    <DataTable
      label="Event Logs"
      columns={['Event', 'Details', 'Instance ID', 'Time']}
      rows={logs}
      rowKey={(log) => log.id}
      empty="No events yet."
    >
      {(log) => (
        <>
          <TableCell sx={{ fontFamily: 'monospace' }}>
            {log.event_name}
          </TableCell>
          <TableCell>
            <EventDetails event={log.event_name} details={log.event_details} />
          </TableCell>
          <TableCell sx={{ fontFamily: 'monospace' }}>
            {log.instance_id}
          </TableCell>
          <TableCell sx={{ whiteSpace: 'nowrap' }}>
            <EventTime at={log.emitted_at} />
          </TableCell>
        </>
      )}
    </DataTable>
  )
}
