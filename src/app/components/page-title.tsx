import { Typography } from '@mui/material'
import type { ReactNode } from 'react'

export function PageTitle({ children }: { children: ReactNode }) {
  return (
    <Typography variant="h4" component="h1" sx={{ mb: 3, fontWeight: 600 }}>
      {children}
    </Typography>
  )
}
