// An outlined panel that is a section of its page, named by its heading for screen readers
// (provider connections, database details, replication health).
import { Paper, Typography } from '@mui/material'
import type { ReactNode } from 'react'

export function PanelSection(props: {
  title: string
  maxWidth?: number
  children: ReactNode
}) {
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={props.title}
      sx={{ p: 2, maxWidth: props.maxWidth }}
    >
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {props.title}
      </Typography>
      {props.children}
    </Paper>
  )
}
