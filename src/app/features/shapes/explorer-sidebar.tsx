// The explorer's sidebar: the team, the source (active ones only, shown by id) and
// the source's tables.
import { MenuItem, Stack, TextField } from '@mui/material'
import type { Source, Team } from '../../../shared/entities.ts'
import { TableList } from './table-list.tsx'
import type { TableRef } from './table-names.ts'
import type { SourceSchema } from './use-source-schema.ts'

export function ExplorerSidebar(props: {
  teams: readonly Team[]
  team: Team | null
  sources: readonly Source[]
  source: Source | null
  schema: SourceSchema
  selected: TableRef | null
  onTeam: (teamId: string) => void
  onSource: (sourceId: string) => void
  onTable: (table: TableRef) => void
  onReload: () => void
}) {
  return (
    <Stack spacing={2}>
      <TextField
        select
        size="small"
        label="Team"
        value={props.team?.id ?? ''}
        onChange={(event) => props.onTeam(event.target.value)}
      >
        {props.teams.map((team) => (
          <MenuItem key={team.id} value={team.id}>
            {team.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label="Source"
        value={props.source?.id ?? ''}
        disabled={props.sources.length === 0}
        onChange={(event) => props.onSource(event.target.value)}
        // A uuid in full: monospace, small enough for the sidebar's width.
        slotProps={{
          select: { sx: { fontFamily: 'monospace', fontSize: '0.8rem' } },
        }}
      >
        {props.sources.map((source) => (
          <MenuItem
            key={source.id}
            value={source.id}
            sx={{ fontFamily: 'monospace', fontSize: '0.8rem' }}
          >
            {source.id}
          </MenuItem>
        ))}
      </TextField>
      {props.source && (
        <TableList
          schema={props.schema}
          selected={props.selected}
          onTable={props.onTable}
          onReload={props.onReload}
        />
      )}
    </Stack>
  )
}
