// The frame of the public pages: a centred column at most 480 px wide, and the
// parts the one-card pages (source status, claim) share.
import { Box, Paper, Stack, Typography } from '@mui/material'
import type { ReactNode } from 'react'
import { PUBLIC_PAGE_MAX_WIDTH_PX } from '../../shared/constants.ts'
import { Logo } from './logo.tsx'

export function PublicPage({ children }: { children: ReactNode }) {
  return (
    <Box
      sx={{
        width: '100%',
        maxWidth: PUBLIC_PAGE_MAX_WIDTH_PX,
        mx: 'auto',
        my: 'auto',
        px: 2,
        py: 6,
      }}
    >
      <Stack spacing={3}>{children}</Stack>
    </Box>
  )
}

/** A public page that is one titled card under the logo. */
export function PublicCard({
  title,
  children,
}: {
  title: string
  children: ReactNode
}) {
  return (
    <PublicPage>
      <Box sx={{ display: 'flex', justifyContent: 'center' }}>
        <Logo size={40} />
      </Box>
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Stack spacing={2}>
          <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
            {title}
          </Typography>
          {children}
        </Stack>
      </Paper>
    </PublicPage>
  )
}

/** An id shown whole under its label (ids are long: they break anywhere). */
export function LabelledId({ label, id }: { label: string; id: string }) {
  return (
    <div>
      <Typography color="text.secondary" variant="body2">
        {label}
      </Typography>
      <Typography sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
        {id}
      </Typography>
    </div>
  )
}
