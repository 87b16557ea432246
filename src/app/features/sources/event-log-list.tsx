// The event log on a phone: a table's four columns leave the details a few characters a line
// at 375 px, so each event is a block, its name and time on top and its details wrapping below.
import { Box, Paper, Stack, Typography } from '@mui/material'
import type { SourceEventLog } from '../../../shared/entities.ts'
import { EventDetails } from './event-details.tsx'
import { EventTime } from './event-time.tsx'

export function EventLogList({ logs }: { logs: SourceEventLog[] | undefined }) {
  return (
    <Paper variant="outlined">
      <Box
        component="ul"
        aria-label="Event Logs"
        sx={{ m: 0, p: 0, listStyle: 'none' }}
      >
        {logs?.length === 0 && (
          <Box component="li" sx={{ p: 2 }}>
            <Typography variant="body2" color="text.secondary">
              No events yet.
            </Typography>
          </Box>
        )}
        {(logs ?? []).map((log) => (
          <Stack
            key={log.id}
            component="li"
            spacing={0.5}
            sx={{ p: 2, '& + &': { borderTop: 1, borderColor: 'divider' } }}
          >
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
            <EventDetails details={log.event_details} />
            <Typography
              variant="caption"
              color="text.secondary"
              sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
            >
              Instance ID: {log.instance_id}
            </Typography>
          </Stack>
        ))}
      </Box>
    </Paper>
  )
}
