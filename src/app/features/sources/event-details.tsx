// An event's details, a line each, wrapping anywhere: the table and the phone list show them alike.
import { Typography } from '@mui/material'
import { eventDetailsLines } from './format.ts'

export function EventDetails({ details }: { details: unknown }) {
  return eventDetailsLines(details).map((line, index) => (
    <Typography key={index} variant="body2" sx={{ wordBreak: 'break-word' }}>
      {line}
    </Typography>
  ))
}
