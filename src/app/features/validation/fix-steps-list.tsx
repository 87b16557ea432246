// 'To fix these issues': the numbered steps, each with SQL ready to paste.
import { Alert, AlertTitle, Box, Typography } from '@mui/material'
import type { FixStep } from './fix-steps.ts'

export function FixStepsList({ steps }: { steps: FixStep[] }) {
  return (
    <Alert severity="warning" icon={false}>
      <AlertTitle>To fix these issues</AlertTitle>
      {/* Numbers are written out, not left to the list, so a skipped step renumbers visibly. */}
      <Box
        component="ol"
        aria-label="Fix steps"
        sx={{ m: 0, p: 0, listStyle: 'none' }}
      >
        {steps.map((step) => (
          <Box component="li" key={step.number} sx={{ mt: 1 }}>
            <Typography variant="body2">
              {step.number}. {step.text}
            </Typography>
            {step.sql && (
              <Box
                component="code"
                sx={{
                  display: 'block',
                  mt: 0.5,
                  p: 1,
                  borderRadius: 1,
                  bgcolor: 'action.hover',
                  fontFamily: 'monospace',
                  overflowWrap: 'anywhere',
                }}
              >
                {step.sql}
              </Box>
            )}
          </Box>
        ))}
      </Box>
    </Alert>
  )
}
