// One protocol message as the Inspector shows it: what it is (an operation and its row's key,
// or a control message or event), then its value, old value and headers as the wire has them.
import { Box, Typography } from '@mui/material'
import { messageSummary, type Message } from './inspector-format.ts'

const mono = { fontFamily: 'monospace', overflowWrap: 'anywhere' } as const

function Field(props: { label: string; value: unknown }) {
  return (
    <Typography variant="caption" component="div" sx={mono}>
      <Box component="span" sx={{ color: 'text.secondary' }}>
        {props.label}:{' '}
      </Box>
      {JSON.stringify(props.value)}
    </Typography>
  )
}

export function InspectedMessage({ message }: { message: Message }) {
  return (
    <Box
      component="li"
      sx={{ py: 1, borderBottom: 1, borderColor: 'divider', listStyle: 'none' }}
    >
      <Typography variant="body2" sx={{ ...mono, fontWeight: 600 }}>
        {messageSummary(message)}
      </Typography>
      {message.value !== undefined && (
        <Field label="value" value={message.value} />
      )}
      {message.old_value !== undefined && (
        <Field label="old value" value={message.old_value} />
      )}
      <Field label="headers" value={message.headers} />
    </Box>
  )
}
