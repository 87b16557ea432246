import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
} from '@mui/material'
import { SCHEDULING_LINKS } from '../../../shared/constants.ts'

export function FeedbackDialog(props: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      aria-labelledby="feedback-title"
    >
      <DialogTitle id="feedback-title">👋 Got 30 minutes?</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          We would love to hear how you use Sluice and what would make it
          better.
        </DialogContentText>
        <Stack spacing={1}>
          <Button
            variant="contained"
            href={SCHEDULING_LINKS.feedbackChat}
            target="_blank"
            rel="noopener noreferrer"
          >
            Book a 30 minute feedback chat
          </Button>
          <Button
            variant="outlined"
            href={SCHEDULING_LINKS.workingSession}
            target="_blank"
            rel="noopener noreferrer"
          >
            Book a 90 minute working session with the founders
          </Button>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  )
}
