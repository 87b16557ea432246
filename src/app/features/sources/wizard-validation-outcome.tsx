// Under a wizard page's validation (the connection string, and each provider's last step): a
// failed call in the wizard's words (wizard-error.ts), else the results panel for the
// connection validated; nothing while what is on screen has not been validated.
import { Alert } from '@mui/material'
import type { DatabaseValidation } from '../../../shared/validation.ts'
import { ValidationResultsPanel } from '../validation/validation-results-panel.tsx'
import { wizardError } from './wizard-error.ts'

export function WizardValidationOutcome(props: {
  /** Whether the outcome is about what the page shows now. */
  current: boolean
  error: string | null
  result: DatabaseValidation | null
  databaseUrl: string
}) {
  if (!props.current) return null
  if (props.error)
    return <Alert severity="error">{wizardError(props.error)}</Alert>
  if (props.result)
    return (
      <ValidationResultsPanel
        result={props.result}
        databaseUrl={props.databaseUrl}
      />
    )
  return null
}
