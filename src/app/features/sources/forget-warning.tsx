// What forgetting an errored source leaves behind on the user's database, and how to clean it
// up (the SQL comes from slot-cleanup.ts).
import { Alert, Box, Typography } from '@mui/material'
import { cleanupSql, type SlotNames } from './slot-cleanup.ts'

export function ForgetWarning({ names }: { names: SlotNames | null }) {
  return (
    <>
      <Alert severity="warning" role="note">
        Forgetting removes the source from Sluice without removing its
        replication slot from your database. The slot stays, so the write-ahead
        log keeps growing, storage fills up and Postgres may crash. You must
        clean it up manually.
      </Alert>
      <Typography variant="body2">
        Run this on your database to remove what Sluice left there:
      </Typography>
      <Box
        component="pre"
        aria-label="Cleanup SQL"
        sx={{
          m: 0,
          p: 1.5,
          borderRadius: 1,
          bgcolor: 'action.hover',
          fontSize: 13,
          overflowX: 'auto',
        }}
      >
        {cleanupSql(names)}
      </Box>
    </>
  )
}
