// The check rows of the results panel: one line per check with its status icon and description.
import CheckCircleIcon from '@mui/icons-material/CheckCircle'
import ErrorIcon from '@mui/icons-material/Error'
import HelpOutlineIcon from '@mui/icons-material/HelpOutlineOutlined'
import { List, ListItem, ListItemIcon, ListItemText } from '@mui/material'
import type { ReactNode } from 'react'
import type { CheckRow, CheckStatus } from './check-rows.ts'

// The icon carries the status for assistive technology (and the e2e tests), not only colour.
const icons: Record<CheckStatus, ReactNode> = {
  success: <CheckCircleIcon color="success" titleAccess="Passed" />,
  error: <ErrorIcon color="error" titleAccess="Failed" />,
  unknown: <HelpOutlineIcon color="disabled" titleAccess="Unknown" />,
}

export function CheckList({ rows }: { rows: CheckRow[] }) {
  return (
    <List dense aria-label="Checks" disablePadding>
      {rows.map((row) => (
        <ListItem key={row.label} disableGutters>
          <ListItemIcon sx={{ minWidth: 36 }}>{icons[row.status]}</ListItemIcon>
          <ListItemText
            primary={row.label}
            secondary={row.description}
            slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
          />
        </ListItem>
      ))}
    </List>
  )
}
