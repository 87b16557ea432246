// The frame of the public pages (spec §2, §9): a centred column at most 480 px wide.
import { Box, Stack } from '@mui/material'
import type { ReactNode } from 'react'
import { PUBLIC_PAGE_MAX_WIDTH_PX } from '../../shared/constants.ts'

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
