// What a dialog shows once its call made something to hand on (a setup link, a signing secret):
// what it is for, the value read-only beside a copy button, and Done.
import {
  Button,
  DialogActions,
  DialogContent,
  Stack,
  TextField,
  Typography,
} from '@mui/material'
import type { ReactNode } from 'react'
import { CopyButton } from './copy-button.tsx'

export function DialogCopyResult(props: {
  /** What the value is for, above it. */
  children: ReactNode
  label: string
  value: string
  copyLabel: string
  onDone: () => void
}) {
  return (
    <>
      <DialogContent>
        <Stack spacing={2}>
          <Typography>{props.children}</Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <TextField
              label={props.label}
              value={props.value}
              fullWidth
              slotProps={{ htmlInput: { readOnly: true } }}
            />
            <CopyButton value={props.value} label={props.copyLabel} />
          </Stack>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onDone}>Done</Button>
      </DialogActions>
    </>
  )
}
