// The Project and Environment filters over a list of sources, each offering the values the
// sources hold; nothing to show while no source has either.
import { MenuItem, Stack, TextField } from '@mui/material'
import type { Source } from '../../../shared/entities.ts'
import {
  isFiltered,
  tagOptions,
  type SourceFilter,
  type SourceTag,
} from './source-projects.ts'

const ALL = { project: 'All projects', environment: 'All environments' }
const LABEL = { project: 'Project', environment: 'Environment' }

function TagFilter({
  tag,
  sources,
  value,
  onChange,
}: {
  tag: SourceTag
  sources: Source[]
  value: string | undefined
  onChange: (change: SourceFilter) => void
}) {
  const options = tagOptions(sources, tag)
  // A value from the link that no source holds still shows as chosen.
  if (value !== undefined && !options.includes(value)) options.push(value)
  return (
    <TextField
      select
      size="small"
      label={LABEL[tag]}
      value={value ?? ''}
      onChange={(e) => onChange({ [tag]: e.target.value || undefined })}
      sx={{ minWidth: 200, maxWidth: '100%' }}
      slotProps={{
        select: { displayEmpty: true },
        inputLabel: { shrink: true },
      }}
    >
      <MenuItem value="">{ALL[tag]}</MenuItem>
      {options.map((option) => (
        <MenuItem key={option} value={option} sx={{ wordBreak: 'break-all' }}>
          {option}
        </MenuItem>
      ))}
    </TextField>
  )
}

export function SourceFilters({
  sources,
  filter,
  onChange,
}: {
  sources: Source[]
  filter: SourceFilter
  onChange: (change: SourceFilter) => void
}) {
  const tagged = sources.some((s) => s.project || s.environment)
  if (!tagged && !isFiltered(filter)) return null
  return (
    <Stack
      direction="row"
      spacing={2}
      useFlexGap
      sx={{ flexWrap: 'wrap', mb: 2 }}
      role="group"
      aria-label="Filters"
    >
      <TagFilter
        tag="project"
        sources={sources}
        value={filter.project}
        onChange={onChange}
      />
      <TagFilter
        tag="environment"
        sources={sources}
        value={filter.environment}
        onChange={onChange}
      />
    </Stack>
  )
}
