import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  neonValidatePath,
  requestNeonValidation,
} from '../../src/app/features/providers/neon-validation.ts'

const validation = {
  has_replication_permissions: true,
  has_logical_wal: true,
  can_connect: true,
  can_connect_without_replication: true,
  has_create_privilege: true,
}

function answer(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => ({
      ok: status >= 200 && status < 300,
      status,
      text: async () => JSON.stringify(body),
    })),
  )
}

afterEach(() => vi.unstubAllGlobals())

describe('the Neon validate call', () => {
  it('names project, branch, database and role, encoded', () => {
    expect(
      neonValidatePath({
        projectId: 'p-1',
        branchId: 'br-1',
        database: 'my db',
        role: 'a&b',
      }),
    ).toBe(
      '/api/public/neon/projects/p-1/branches/br-1/databases/my%20db/validate?role=a%26b',
    )
  })

  it('hands over the check and the connection URI', async () => {
    const uri = 'postgresql://app:pw@ep-1.neon.tech/app?sslmode=require'
    answer(200, { validation, neon: { connection_uri: uri } })
    const outcome = await requestNeonValidation(
      '/x',
      new AbortController().signal,
    )
    expect(outcome).toEqual({
      result: validation,
      error: null,
      connectionUri: uri,
    })
  })

  it("reads a failure's message, else its error, else the fallback; never a URI", async () => {
    answer(502, { message: 'Neon answered 500.' })
    const signal = new AbortController().signal
    expect(await requestNeonValidation('/x', signal)).toMatchObject({
      error: 'Neon answered 500.',
      connectionUri: null,
    })
    answer(400, { error: 'role: is not a valid name' })
    expect((await requestNeonValidation('/x', signal)).error).toBe(
      'role: is not a valid name',
    )
    answer(500, {})
    expect((await requestNeonValidation('/x', signal)).error).toBe(
      'Failed to validate database connection',
    )
  })

  it('turns an unreadable answer or a network failure into the fallback', async () => {
    const signal = new AbortController().signal
    answer(200, { validation })
    expect((await requestNeonValidation('/x', signal)).error).toBe(
      'Failed to validate database connection',
    )
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch')
      }),
    )
    const outcome = await requestNeonValidation('/x', signal)
    expect(outcome.error).toBe('Failed to validate database connection')
    expect(outcome.result.can_connect).toBe(false)
  })
})
