// A page's heading, which is also its document title.
import { Typography } from '@mui/material'
import { useDocumentTitle } from './document-title.ts'

export function PageTitle({ children }: { children: string }) {
  useDocumentTitle(children)
  return (
    <Typography variant="h4" component="h1" sx={{ mb: 3, fontWeight: 600 }}>
      {children}
    </Typography>
  )
}
