// A source's displayed state as a coloured badge, on cards and the public status page.
import { Chip } from '@mui/material'
import type { BadgeColor } from '../../../shared/source-display.ts'

const CHIP_COLOR = {
  red: 'error',
  amber: 'warning',
  green: 'success',
} as const

// MUI has no violet in its palette; this one reads on both the dark and light schemes.
const VIOLET = '#8b5cf6'

export function StateBadge({
  state,
  color,
}: {
  state: string
  color: BadgeColor
}) {
  if (color === 'violet')
    return (
      <Chip
        size="small"
        label={state}
        sx={{ bgcolor: VIOLET, color: '#fff' }}
      />
    )
  return (
    <Chip
      size="small"
      label={state}
      color={color ? CHIP_COLOR[color] : 'default'}
    />
  )
}
