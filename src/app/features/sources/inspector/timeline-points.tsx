// The shape's timeline in the Inspector: each point a client can read from (the start, the
// snapshot's end, each transaction), a button that reads the messages from its offset.
import { Box, Button, Typography } from '@mui/material'
import type { readTimeline } from './inspector-api.ts'
import { pointLabel } from './inspector-format.ts'

type Timeline = Awaited<ReturnType<typeof readTimeline>>

export function TimelinePoints(props: {
  timeline: Timeline | null
  onPick: (offset: string) => void
}) {
  return (
    <section aria-label="Timeline">
      <Typography variant="subtitle2" component="h3">
        Timeline
      </Typography>
      {props.timeline === null ? (
        <Typography variant="body2" color="text.secondary">
          Reading the shape’s log...
        </Typography>
      ) : (
        <Box
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            gap: 0.5,
            maxHeight: 160,
            overflowY: 'auto',
          }}
        >
          {props.timeline.points.map((point, i) => (
            <Button
              key={i}
              size="small"
              variant="outlined"
              title={`Read from offset ${point.offset}`}
              onClick={() => props.onPick(point.offset)}
            >
              {pointLabel(point)}
            </Button>
          ))}
          {props.timeline.truncated && (
            <Typography variant="caption" color="text.secondary">
              The log goes on past these points.
            </Typography>
          )}
        </Box>
      )}
    </section>
  )
}
