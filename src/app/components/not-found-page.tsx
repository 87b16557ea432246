import { Box, Typography } from '@mui/material'
import { useDocumentTitle } from './document-title.ts'
import { ButtonLink } from './links.tsx'

export function NotFoundPage() {
  useDocumentTitle('Page not found')
  return (
    <Box sx={{ p: 4, textAlign: 'center' }}>
      <Typography variant="h5" component="h1" gutterBottom>
        Page not found
      </Typography>
      <ButtonLink to="/" variant="outlined">
        Go home
      </ButtonLink>
    </Box>
  )
}
