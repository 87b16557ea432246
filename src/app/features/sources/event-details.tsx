// An event's details, a line each, wrapping anywhere: the table and the phone list show them alike.
// A shapes_invalidated event reads as a sentence (what rotated, why, and who refetched).
import { Typography } from '@mui/material'
import { SOURCE_EVENTS } from '../../../shared/sources.ts'
import { eventDetailsLines } from './format.ts'
import { invalidatedEventLine } from './metrics/figure-format.ts'

function detailsLines(event: string, details: unknown): string[] {
  const sentence =
    event === SOURCE_EVENTS.shapesInvalidated
      ? invalidatedEventLine(details)
      : null
  return sentence === null ? eventDetailsLines(details) : [sentence]
}

export function EventDetails(props: { event: string; details: unknown }) {
  return detailsLines(props.event, props.details).map((line, index) => (
    <Typography key={index} variant="body2" sx={{ wordBreak: 'break-word' }}>
      {line}
    </Typography>
  ))
}
