// The explorer's selection lives in its search params (table, where, teamId,
// sourceId), so a URL reopens the same shape and back/forward step through the choices. With
// no teamId the first team is meant, with no sourceId the team's first active source; an id
// that names none of them selects nothing rather than something else.
import { getRouteApi } from '@tanstack/react-router'
import type { Source, Team } from '../../../shared/entities.ts'
import { sourceDisplay } from '../../../shared/source-display.ts'
import { useTeamSources } from '../../db/tab/hooks.ts'
import { parseTableParam, tableParam, type TableRef } from './table-names.ts'

const route = getRouteApi('/_dashboard/shape-explorer/')

// Only an active source's tables can be read (the server answers 409 for any other).
const isActive = (source: Source) => sourceDisplay(source).state === 'active'

function pick<T extends { id: string }>(
  items: readonly T[],
  id: string | undefined,
): T | null {
  if (id === undefined) return items[0] ?? null
  return items.find((item) => item.id === id) ?? null
}

export function useExplorerSelection(teams: readonly Team[]) {
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const team = pick(teams, search.teamId)
  const activeSources = useTeamSources(team?.id ?? '')?.filter(isActive)
  const source = activeSources && pick(activeSources, search.sourceId)
  const table = search.table ? parseTableParam(search.table) : null
  const where = search.where?.trim() ?? ''

  return {
    team,
    /** undefined while the team's sources are read. */
    activeSources,
    source,
    table,
    where,
    selectTeam: (teamId: string) => void navigate({ search: { teamId } }),
    selectSource: (sourceId: string) =>
      void navigate({ search: { teamId: team?.id, sourceId } }),
    /** Opens a table with the where clause its remembered shape has, if any. */
    selectTable: (next: TableRef, rememberedWhere: string | undefined) =>
      void navigate({
        search: {
          teamId: team?.id,
          sourceId: source?.id,
          table: tableParam(next),
          where: rememberedWhere || undefined,
        },
      }),
    submitWhere: (text: string) =>
      void navigate({
        search: {
          teamId: team?.id,
          sourceId: source?.id,
          table: search.table,
          where: text.trim() || undefined,
        },
      }),
  }
}
