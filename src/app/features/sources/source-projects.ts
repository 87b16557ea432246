// A team's sources by project and environment: the filters' choices, what they keep, and the
// groups a team's list shows (Electric Cloud's project > environment > source, the team being
// the workspace). Pure, so the pages only lay them out.
import { z } from 'zod'

type Tagged = { project: string | null; environment: string | null }

export type SourceTag = keyof Tagged

/**
 * What the filters chose, kept in the page's search params (so a filtered list has a link);
 * absent: any. A value no source holds is kept and matches none, as a link may outlive it.
 */
export const sourceFilterSchema = z.object({
  project: z.string().optional().catch(undefined),
  environment: z.string().optional().catch(undefined),
})
export type SourceFilter = z.infer<typeof sourceFilterSchema>

export type ProjectGroup<T> = { project: string | null; sources: T[] }

// Code-point order: the same in every browser and locale, and labels are ASCII.
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

export function filterSources<T extends Tagged>(
  sources: T[],
  filter: SourceFilter,
): T[] {
  return sources.filter(
    (source) =>
      (filter.project === undefined || source.project === filter.project) &&
      (filter.environment === undefined ||
        source.environment === filter.environment),
  )
}

export const isFiltered = (filter: SourceFilter) =>
  filter.project !== undefined || filter.environment !== undefined

/**
 * One group per project, in name order, each keeping the sources' order; sources without a
 * project come last. When none has a project it is a single group, which the list shows
 * without a heading.
 */
export function groupByProject<T extends Tagged>(
  sources: T[],
): ProjectGroup<T>[] {
  const groups = new Map<string, T[]>()
  const none: T[] = []
  for (const source of sources) {
    if (source.project === null) none.push(source)
    else
      groups.set(source.project, [
        ...(groups.get(source.project) ?? []),
        source,
      ])
  }
  const named: ProjectGroup<T>[] = [...groups.keys()]
    .sort(byCodePoint)
    .map((project) => ({ project, sources: groups.get(project) ?? [] }))
  if (named.length === 0 || none.length > 0)
    named.push({ project: null, sources: none })
  return named
}

/** The values a filter offers: each one the sources hold, once, in order. */
export function tagOptions(sources: Tagged[], tag: SourceTag): string[] {
  const values = new Set<string>()
  for (const source of sources) {
    const value = source[tag]
    if (value !== null) values.add(value)
  }
  return [...values].sort(byCodePoint)
}
