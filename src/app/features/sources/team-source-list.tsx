// One team's sources as its pages list them: filtered, then grouped by project when any has
// one (a heading per project in name order, those without one last under 'No project').
import { Box, Stack, Typography } from '@mui/material'
import type { Source } from '../../../shared/entities.ts'
import { SourceGrid } from './source-grid.tsx'
import {
  filterSources,
  groupByProject,
  type SourceFilter,
} from './source-projects.ts'

export const NO_MATCH_TEXT = 'No sources match these filters.'

export function TeamSourceList({
  sources,
  filter,
}: {
  sources: Source[]
  filter: SourceFilter
}) {
  // The spec's empty text for a team without sources, whatever the filters.
  if (sources.length === 0) return <SourceGrid sources={sources} />
  const shown = filterSources(sources, filter)
  if (shown.length === 0)
    return <Typography color="text.secondary">{NO_MATCH_TEXT}</Typography>
  const groups = groupByProject(shown)
  const only = groups[0]
  if (groups.length === 1 && only?.project === null)
    return <SourceGrid sources={only.sources} />
  return (
    <Stack spacing={3}>
      {groups.map(({ project, sources: grouped }) => {
        const title = project ?? 'No project'
        return (
          <Box
            component="section"
            key={title}
            aria-label={project === null ? title : `Project ${project}`}
          >
            <Typography
              variant="h6"
              component="h3"
              sx={{ mb: 1, wordBreak: 'break-all' }}
            >
              {title}
            </Typography>
            <SourceGrid sources={grouped} />
          </Box>
        )
      })}
    </Stack>
  )
}
