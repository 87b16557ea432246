// A source's event logs, newest first (spec §2), live from the local store: the spec's table
// where there is room for its columns, one block per event below the mobile breakpoint.
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
import type { SourceEventLog } from '../../../shared/entities.ts'
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
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label="Event Logs">
        <TableHead>
          <TableRow>
            <TableCell>Event</TableCell>
            <TableCell>Details</TableCell>
            <TableCell>Instance ID</TableCell>
            <TableCell>Time</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {logs?.length === 0 && (
            <TableRow>
              <TableCell colSpan={4}>
                <Typography variant="body2" color="text.secondary">
                  No events yet.
                </Typography>
              </TableCell>
            </TableRow>
          )}
          {(logs ?? []).map((log) => (
            <TableRow key={log.id}>
              <TableCell sx={{ fontFamily: 'monospace' }}>
                {log.event_name}
              </TableCell>
              <TableCell>
                <EventDetails details={log.event_details} />
              </TableCell>
              <TableCell sx={{ fontFamily: 'monospace' }}>
                {log.instance_id}
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <EventTime at={log.emitted_at} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  )
}
