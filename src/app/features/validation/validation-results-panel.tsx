// The results panel, shared by the public page and the wizard (and the providers'
// setup forms once they ship): the verdict, the check rows, the fix steps and the warnings.
import { Alert, Paper, Stack } from '@mui/material'
import type { DatabaseValidation } from '../../../shared/validation.ts'
import { checkRows, panelVerdict } from './check-rows.ts'
import {
  ConnectionFailed,
  ReplicationConnectionFailed,
} from './connection-failed.tsx'
import { diagnosticWarnings } from './diagnostic-warnings.ts'
import { fixSteps, namesFor } from './fix-steps.ts'
import { CheckList } from './check-list.tsx'
import { FixStepsList } from './fix-steps-list.tsx'

export function ValidationResultsPanel({
  result,
  databaseUrl,
}: {
  result: DatabaseValidation
  /** The URL that was validated: names the user and database when the server did not. */
  databaseUrl: string
}) {
  const verdict = panelVerdict(result)
  const steps = fixSteps(result, namesFor(result, databaseUrl))
  const warnings = diagnosticWarnings(result.diagnostics)
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label="Validation results"
      sx={{ p: 2 }}
    >
      <Stack spacing={2}>
        {verdict === 'ready' && (
          <Alert severity="success">
            Database is correctly configured for the sync engine!
          </Alert>
        )}
        {verdict === 'unreachable' && <ConnectionFailed />}
        {verdict === 'replication-refused' && <ReplicationConnectionFailed />}
        <CheckList rows={checkRows(result)} />
        {steps.length > 0 && <FixStepsList steps={steps} />}
        {warnings.map((warning) => (
          <Alert key={warning} severity="warning">
            {warning}
          </Alert>
        ))}
      </Stack>
    </Paper>
  )
}
