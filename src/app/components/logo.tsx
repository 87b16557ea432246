import { Box, Typography } from '@mui/material'

/** The Sluice mark and word, as on the favicon. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <Box
        component="img"
        src="/favicon.svg"
        alt=""
        sx={{ width: size, height: size }}
      />
      <Typography variant="h6" component="span" sx={{ fontWeight: 700 }}>
        Sluice
      </Typography>
    </Box>
  )
}
