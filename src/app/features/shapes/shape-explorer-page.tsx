// /shape-explorer: pick a team, one of its active sources and a table, narrow it
// with a where clause, and watch the shape's rows live, with the code that syncs the same shape
// into an app. Teams and sources come from the local store; tables, row counts and rows from
// the server.
import { Box, Stack, Typography } from '@mui/material'
import { useEffect, useState } from 'react'
import type { Source, Team } from '../../../shared/entities.ts'
import { ButtonLink } from '../../components/links.tsx'
import { PageTitle } from '../../components/page-title.tsx'
import { useTeams } from '../../db/tab/hooks.ts'
import { ExplorerSidebar } from './explorer-sidebar.tsx'
import { preloadShapeGrid } from './lazy-shape-grid.tsx'
import { primaryKey, type ShapeColumn } from './shape-columns.ts'
import { ShapePanel } from './shape-panel.tsx'
import type { ShapeTarget } from './shape-rules.ts'
import type { SnippetShape } from './snippets.ts'
import { everyTableIsPublic, tableLabel, type TableRef } from './table-names.ts'
import { useExplorerSelection } from './use-explorer-selection.ts'
import { useShapeRequest } from './use-shape-request.ts'
import {
  shapeParams,
  shapeUrl,
  useShapeRows,
  type ShapeSource,
} from './use-shape-rows.ts'
import { useSourceSchema } from './use-source-schema.ts'

export function ShapeExplorerPage() {
  const teams = useTeams()
  useEffect(preloadShapeGrid, [])
  return (
    <>
      <PageTitle>Shape Explorer</PageTitle>
      {teams &&
        (teams.length === 0 ? <NoSources /> : <Explorer teams={teams} />)}
    </>
  )
}

function NoSources() {
  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
      <Typography variant="h6" component="h2">
        No sources created yet
      </Typography>
      <Typography color="text.secondary">
        Add a source to start exploring shapes
      </Typography>
      <ButtonLink to="/sources/new" variant="outlined">
        Add source
      </ButtonLink>
    </Stack>
  )
}

function targetOf(
  team: Team | null,
  source: Source | null | undefined,
  table: TableRef | null,
  where: string,
): ShapeTarget | null {
  if (!team || !source || !table) return null
  return { teamId: team.id, sourceId: source.id, table, where }
}

function snippetOf(
  shape: ShapeSource,
  columns: readonly ShapeColumn[],
): SnippetShape {
  const key = primaryKey(columns)
  return {
    url: shapeUrl(),
    params: shapeParams(shape),
    tableName: `${shape.table.schema}.${shape.table.name}`,
    keyColumns: key.length > 0 ? key : columns.map((column) => column.name),
  }
}

function Explorer({ teams }: { teams: readonly Team[] }) {
  const selection = useExplorerSelection(teams)
  const { team, source, table, where } = selection
  const { schema, reload } = useSourceSchema(source?.id ?? null)
  const target = targetOf(team, source, table, where)
  const request = useShapeRequest(target)
  // A repeat visit first shows the last visit's rows, secrets blanked (last-screen.ts): the
  // stream waits for the store's own row, as a blank secret would only be refused (401).
  const shape: ShapeSource | null =
    request.state.kind === 'shape' && source?.source_secret && table
      ? { sourceId: source.id, secret: source.source_secret, table, where }
      : null
  const rows = useShapeRows(shape)
  // Tab in an empty where field fills in the last clause asked for.
  const [lastWhere, setLastWhere] = useState(where)
  const hideSchema =
    schema.kind === 'tables' && everyTableIsPublic(schema.tables)
  const noSources = selection.activeSources?.length === 0

  const submit = (text: string) => {
    if (text) setLastWhere(text)
    // The same clause again: after a warning it is asked again; a shape created with it
    // already has it, and retry() then asks nothing.
    if (text === where) request.retry()
    else selection.submitWhere(text)
  }
  const openTable = (next: TableRef) => {
    if (!team || !source) return
    if (table?.schema === next.schema && table.name === next.name) return
    const remembered = request.whereOf({
      teamId: team.id,
      sourceId: source.id,
      table: next,
    })
    selection.selectTable(next, remembered)
  }

  return (
    <Stack
      direction={{ xs: 'column', md: 'row' }}
      spacing={3}
      sx={{ alignItems: { md: 'flex-start' } }}
    >
      <Box
        component="aside"
        aria-label="Shape source"
        sx={{ width: { md: 320 }, flexShrink: 0 }}
      >
        <ExplorerSidebar
          teams={teams}
          team={team}
          sources={selection.activeSources ?? []}
          source={source ?? null}
          schema={schema}
          selected={table}
          onTeam={selection.selectTeam}
          onSource={selection.selectSource}
          onTable={openTable}
          onReload={reload}
        />
      </Box>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        {noSources || !team ? (
          <NoSources />
        ) : (
          <ShapePanel
            shapeId={JSON.stringify([team.id, source?.id, table, where])}
            tableLabel={table && tableLabel(table, hideSchema)}
            where={where}
            lastWhere={lastWhere}
            request={request.state}
            rows={rows}
            sourceId={source?.id ?? null}
            snippet={
              shape && rows.kind === 'rows'
                ? snippetOf(shape, rows.columns)
                : null
            }
            onSubmit={submit}
          />
        )}
      </Box>
    </Stack>
  )
}
