import { describe, expect, it } from 'vitest'
import { PROVIDER_REFETCH_MS } from '../../src/shared/constants.ts'
import { ApiError } from '../../src/app/lib/api.ts'
import { providerLists } from '../../src/app/features/providers/provider-api.ts'
import {
  failedList,
  listErrorText,
  retryDelayMs,
  shouldRetry,
} from '../../src/app/features/providers/refetch-policy.ts'
import {
  byName,
  primaryFirst,
} from '../../src/app/features/providers/sorting.ts'

describe('refetch policy', () => {
  it('refetches every 10 s', () => {
    expect(PROVIDER_REFETCH_MS).toBe(10_000)
  })

  it('retries a failed read 3 times, then gives up', () => {
    const down = new TypeError('Failed to fetch')
    expect([1, 2, 3, 4].map((n) => shouldRetry(n, down))).toEqual([
      true,
      true,
      true,
      false,
    ])
    const serverError = new ApiError(502, 'Bad gateway')
    expect(shouldRetry(3, serverError)).toBe(true)
    expect(shouldRetry(4, serverError)).toBe(false)
  })

  it('does not retry an answer: 401 (not connected) or another 4xx', () => {
    expect(shouldRetry(1, new ApiError(401, 'Unauthorized'))).toBe(false)
    expect(shouldRetry(1, new ApiError(404, 'Not found'))).toBe(false)
  })

  it('waits longer between tries, a few seconds in all', () => {
    const waits = [1, 2, 3].map(retryDelayMs)
    expect(waits).toEqual([500, 1000, 2000])
  })
})

describe('provider list failures', () => {
  const orgs = providerLists.organizations()

  it('reads a 401 as not connected, not as an error', () => {
    expect(
      failedList(new ApiError(401, 'x'), orgs.noun, orgs.fallback),
    ).toEqual({ kind: 'not-connected' })
  })

  it("shows the list's own text, not the server's words", () => {
    const error = new ApiError(502, 'Supabase answered 500.', {
      message: 'Supabase answered 500.',
    })
    expect(failedList(error, orgs.noun, orgs.fallback)).toEqual({
      kind: 'error',
      text: 'Error loading organizations: Failed to fetch organizations',
    })
  })

  it('falls back to the fixed message of each list', () => {
    const cases = [
      [orgs, 'Error loading organizations: Failed to fetch organizations'],
      [
        providerLists.supabaseProjects('o'),
        'Error loading projects: Failed to fetch organization projects',
      ],
      [
        providerLists.neonProjects(),
        'Error loading projects: Failed to fetch Neon projects',
      ],
      [
        providerLists.branches('p'),
        'Error loading branches: Failed to fetch Neon branches',
      ],
      [
        providerLists.databases('p', 'b'),
        'Error loading databases: Failed to fetch Neon databases',
      ],
      [
        providerLists.roles('p', 'b'),
        'Error loading roles: Failed to fetch Neon roles',
      ],
    ] as const
    for (const [list, text] of cases)
      expect(listErrorText(list.noun, list.fallback)).toBe(text)
  })

  it('encodes ids into the paths', () => {
    expect(providerLists.databases('p/1', 'br 2').path).toBe(
      '/api/public/neon/projects/p%2F1/branches/br%202/databases',
    )
  })
})

describe('sorting', () => {
  it('sorts by name, ignoring case', () => {
    const names = byName([
      { name: 'beta' },
      { name: 'Alpha' },
      { name: 'gamma' },
    ])
    expect(names.map((o) => o.name)).toEqual(['Alpha', 'beta', 'gamma'])
  })

  it('puts the primary branch first, then the rest by name', () => {
    const branches = primaryFirst([
      { name: 'zeta', primary: false },
      { name: 'main', primary: true },
      { name: 'dev', primary: false },
    ])
    expect(branches.map((b) => b.name)).toEqual(['main', 'dev', 'zeta'])
  })
})
