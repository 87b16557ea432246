// A list of blocks, one per item, for what a table cannot show on a narrow screen (a phone, a
// window beside the sidebar): each item's parts wrap in its own block instead of squeezing a
// column to a few characters a line.
import { Box, Paper, Stack, Typography } from '@mui/material'
import type { ReactNode } from 'react'

type BlockListProps<T> = {
  /** The list's accessible name. */
  label: string
  /** undefined while loading: nothing is shown yet. */
  items: T[] | undefined
  /** Shown when there are no items. */
  empty: string
  itemKey: (item: T) => string
  /** Space between an item's parts (MUI spacing units). */
  spacing?: number
  children: (item: T) => ReactNode
}

export function BlockList<T>({
  label,
  items,
  empty,
  itemKey,
  spacing = 0.5,
  children,
}: BlockListProps<T>) {
  return (
    <Paper variant="outlined">
      <Box
        component="ul"
        aria-label={label}
        sx={{ m: 0, p: 0, listStyle: 'none' }}
      >
        {items?.length === 0 && (
          <Box component="li" sx={{ p: 2 }}>
            <Typography variant="body2" color="text.secondary">
              {empty}
            </Typography>
          </Box>
        )}
        {(items ?? []).map((item) => (
          <Stack
            key={itemKey(item)}
            component="li"
            spacing={spacing}
            sx={{ p: 2, '& + &': { borderTop: 1, borderColor: 'divider' } }}
          >
            {children(item)}
          </Stack>
        ))}
      </Box>
    </Paper>
  )
}

/** One of an item's parts, named: `Label: value`, the label muted. */
export function BlockLine(props: { label: string; children: ReactNode }) {
  return (
    <Typography variant="body2">
      <Typography component="span" variant="body2" color="text.secondary">
        {props.label}:{' '}
      </Typography>
      {props.children}
    </Typography>
  )
}
