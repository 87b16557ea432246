// Filtering a team's sources by project and environment, and grouping them by project.
import { describe, expect, it } from 'vitest'
import {
  filterSources,
  groupByProject,
  tagOptions,
} from '../../src/app/features/sources/source-projects.ts'

type Tagged = { id: string; project: string | null; environment: string | null }
const source = (
  id: string,
  project: string | null,
  environment: string | null = null,
): Tagged => ({ id, project, environment })

const a = source('a', 'web', 'production')
const b = source('b', null, 'pr-1')
const c = source('c', 'api', 'production')
const d = source('d', 'web', 'pr-1')

describe('filterSources', () => {
  it('keeps every source when nothing is chosen', () => {
    expect(filterSources([a, b, c, d], {})).toEqual([a, b, c, d])
  })
  it('keeps the sources matching each choice', () => {
    expect(filterSources([a, b, c, d], { project: 'web' })).toEqual([a, d])
    expect(filterSources([a, b, c, d], { environment: 'pr-1' })).toEqual([b, d])
    expect(
      filterSources([a, b, c, d], { project: 'web', environment: 'pr-1' }),
    ).toEqual([d])
    expect(filterSources([a, b, c, d], { project: 'none-such' })).toEqual([])
  })
})

describe('groupByProject', () => {
  it('is one group without a project when no source has one', () => {
    expect(groupByProject([b])).toEqual([{ project: null, sources: [b] }])
    expect(groupByProject([])).toEqual([{ project: null, sources: [] }])
  })
  it('groups by project in name order, keeping order within, the rest last', () => {
    expect(groupByProject([a, b, c, d])).toEqual([
      { project: 'api', sources: [c] },
      { project: 'web', sources: [a, d] },
      { project: null, sources: [b] },
    ])
    expect(groupByProject([a, c])).toEqual([
      { project: 'api', sources: [c] },
      { project: 'web', sources: [a] },
    ])
  })
})

describe('tagOptions', () => {
  it('lists each value once, sorted, with none left out', () => {
    expect(tagOptions([a, b, c, d], 'project')).toEqual(['api', 'web'])
    expect(tagOptions([a, b, c, d], 'environment')).toEqual([
      'pr-1',
      'production',
    ])
  })
})
