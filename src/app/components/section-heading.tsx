// A dashboard section's heading with the section's actions at its right (the team page's
// sources, setup links and alerts).
import { Stack, Typography } from '@mui/material'
import type { ReactNode } from 'react'

export function SectionHeading(props: { title: string; children: ReactNode }) {
  return (
    <Stack
      direction="row"
      spacing={2}
      sx={{ mb: 2, alignItems: 'center', justifyContent: 'space-between' }}
    >
      <Typography variant="h5" component="h2">
        {props.title}
      </Typography>
      {props.children}
    </Stack>
  )
}
