// The two 'Connection Failed' blocks: nothing connected, or only replication refused.
import { Alert, AlertTitle, Box, Typography } from '@mui/material'

function Checklist({ items }: { items: string[] }) {
  return (
    <Box component="ul" sx={{ m: 0, mt: 1, pl: 2.5 }}>
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </Box>
  )
}

export function ConnectionFailed() {
  return (
    <Alert severity="error">
      <AlertTitle>Connection Failed</AlertTitle>
      <Typography variant="body2">
        Could not connect to the database. Please check that:
      </Typography>
      <Checklist
        items={[
          'The database server is running and reachable',
          'The username and password are correct',
          'The database exists',
          'The URL has an sslmode parameter matching the server (for example ?sslmode=require)',
          'Firewall rules allow connections to the database',
        ]}
      />
    </Alert>
  )
}

export function ReplicationConnectionFailed() {
  return (
    <Alert severity="error">
      <AlertTitle>Connection Failed</AlertTitle>
      <Typography variant="body2">
        A normal connection works, but a replication connection does not. The
        sync engine needs both:
      </Typography>
      <Checklist
        items={[
          'The role needs the REPLICATION attribute, or membership of a role that has it',
          'The URL must be a direct connection to the database, not a connection pooler',
        ]}
      />
    </Alert>
  )
}
