// The event log on a phone: a table's four columns leave the details a few characters a line
// at 375 px, so each event is a block, its name and time on top and its details wrapping below.
import { Box, Typography } from '@mui/material'
import type { SourceEventLog } from '../../../shared/entities.ts'
import { BlockList } from '../../components/block-list.tsx'
import { EventDetails } from './event-details.tsx'
import { EventTime } from './event-time.tsx'

export function EventLogList({ logs }: { logs: SourceEventLog[] | undefined }) {
  return (
    <BlockList
      label="Event Logs"
      items={logs}
      empty="No events yet."
      itemKey={(log) => log.id}
    >
      {(log) => (
        <>
          <Box
            sx={{
              display: 'flex',
              flexWrap: 'wrap',
              columnGap: 2,
              justifyContent: 'space-between',
            }}
          >
            <Typography
              variant="body2"
              sx={{ fontFamily: 'monospace', fontWeight: 600 }}
            >
              {log.event_name}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              <EventTime at={log.emitted_at} />
            </Typography>
          </Box>
          <EventDetails event={log.event_name} details={log.event_details} />
          <Typography
            variant="caption"
            color="text.secondary"
            sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
          >
            Instance ID: {log.instance_id}
          </Typography>
        </>
      )}
    </BlockList>
  )
}
