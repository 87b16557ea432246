// The Project and Environment fields, as the wizard's last step and the source page's dialog
// show them: checked as the server checks them, each error under its own field.
import { Stack, TextField } from '@mui/material'
import {
  sourceEnvironmentSchema,
  sourceProjectSchema,
} from '../../../shared/sources.ts'

export type TagValues = { project: string; environment: string }

/** The values as the API takes them (trimmed, empty as null), or null when one is refused. */
export type ParsedTags = {
  data: { project: string | null; environment: string | null } | null
  projectError?: string
  environmentError?: string
}

export function parseTags(values: TagValues): ParsedTags {
  const project = sourceProjectSchema.safeParse(values.project)
  const environment = sourceEnvironmentSchema.safeParse(values.environment)
  return {
    data:
      project.success && environment.success
        ? { project: project.data, environment: environment.data }
        : null,
    projectError: project.error?.issues[0]?.message,
    environmentError: environment.error?.issues[0]?.message,
  }
}

export function SourceTagFields({
  values,
  onChange,
  disabled,
  autoFocus = false,
}: {
  values: TagValues
  onChange: (change: Partial<TagValues>) => void
  disabled: boolean
  autoFocus?: boolean
}) {
  const parsed = parseTags(values)
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
      <TextField
        label="Project"
        value={values.project}
        onChange={(e) => onChange({ project: e.target.value })}
        error={Boolean(parsed.projectError)}
        helperText={parsed.projectError ?? 'Optional, e.g. my-app'}
        disabled={disabled}
        autoFocus={autoFocus}
        fullWidth
      />
      <TextField
        label="Environment"
        value={values.environment}
        onChange={(e) => onChange({ environment: e.target.value })}
        error={Boolean(parsed.environmentError)}
        helperText={
          parsed.environmentError ?? 'Optional, e.g. production or pr-123'
        }
        disabled={disabled}
        fullWidth
      />
    </Stack>
  )
}
