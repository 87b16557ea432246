// Source names through the whole app: set when adding a source (PUT /api/v1/sources) and
// changed with PATCH /api/v1/sources/{id}, by members of the source's team only.
import { describe, expect, it } from 'vitest'
import { NAME_MAX_LENGTH } from '../../src/shared/constants.ts'
import {
  createSourceResponseSchema,
  updateSourceResponseSchema,
} from '../../src/shared/sources.ts'
import type { Browser } from '../support/app.ts'
import { skip, useSourcesApi } from '../support/sources-api.ts'

const api = useSourcesApi()

async function addSource(browser: Browser, teamId: string, name?: unknown) {
  const { url } = await api.readyDatabase()
  return api.put(
    browser,
    { region: 'eu-west-1', team_id: teamId, database_url: url, name },
    skip,
  )
}

describe('naming a source when adding it', () => {
  it('stores the name trimmed, and no name when it is blank or absent', async () => {
    const { browser, teamId } = await api.signIn()
    const named = await addSource(browser, teamId, '  Orders DB  ')
    expect(named.status).toBe(201)
    const { id } = createSourceResponseSchema.parse(named.body)
    expect((await api.sourceRow(id)).name).toBe('Orders DB')

    for (const name of ['   ', null, undefined]) {
      const answer = await addSource(browser, teamId, name)
      expect(answer.status).toBe(201)
      expect((await api.sourceRow(answer.body.id)).name).toBeNull()
    }
  })

  it('refuses a name longer than the limit with a 400 naming the field', async () => {
    const { browser, teamId } = await api.signIn()
    const answer = await addSource(
      browser,
      teamId,
      'n'.repeat(NAME_MAX_LENGTH + 1),
    )
    expect(answer.status).toBe(400)
    expect(answer.body.message).toBe(
      `name: Name must be at most ${NAME_MAX_LENGTH} characters`,
    )
    expect(await api.teamSources(teamId)).toBe(0)
  })
})

describe('renaming a source', () => {
  it('changes the name in the transaction it answers, and clears it when empty', async () => {
    const { browser, teamId } = await api.signIn()
    const { id } = createSourceResponseSchema.parse(
      (await addSource(browser, teamId, 'Before')).body,
    )
    const renamed = await api.patch(browser, id, { name: ' After ' })
    expect(renamed.status).toBe(200)
    const answer = updateSourceResponseSchema.parse(renamed.body)
    expect(answer).toEqual({
      id,
      name: 'After',
      project: null,
      environment: null,
      txid: expect.any(Number),
    })
    const row = await api.sourceRow(id)
    expect(row.name).toBe('After')
    expect(Number(row.xmin)).toBe(answer.txid)

    const cleared = await api.patch(browser, id, { name: '' })
    expect(cleared.status).toBe(200)
    expect(cleared.body).toMatchObject({ id, name: null })
    expect((await api.sourceRow(id)).name).toBeNull()
  })

  it('refuses a too-long or missing name with a 400 and keeps the old one', async () => {
    const { browser, teamId } = await api.signIn()
    const { id } = createSourceResponseSchema.parse(
      (await addSource(browser, teamId, 'Kept')).body,
    )
    const long = await api.patch(browser, id, {
      name: 'n'.repeat(NAME_MAX_LENGTH + 1),
    })
    expect(long.status).toBe(400)
    expect(long.body.message).toBe(
      `name: Name must be at most ${NAME_MAX_LENGTH} characters`,
    )
    const atLimit = await api.patch(browser, id, {
      name: 'n'.repeat(NAME_MAX_LENGTH),
    })
    expect(atLimit.status).toBe(200)
    expect((await api.patch(browser, id, {})).status).toBe(400)
    expect((await api.patch(browser, id, { name: 7 })).status).toBe(400)
    expect((await api.sourceRow(id)).name).toBe('n'.repeat(NAME_MAX_LENGTH))
  })

  it("answers 404 to another team's member, exactly like a missing source", async () => {
    const owner = await api.signIn()
    const stranger = await api.signIn()
    const { id } = createSourceResponseSchema.parse(
      (await addSource(owner.browser, owner.teamId, 'Mine')).body,
    )
    const theirs = await api.patch(stranger.browser, id, { name: 'Stolen' })
    expect(theirs.status).toBe(404)
    const missing = await api.patch(
      stranger.browser,
      '00000000-0000-4000-8000-000000000000',
      { name: 'Stolen' },
    )
    expect(missing.status).toBe(404)
    expect(theirs.body).toEqual(missing.body)
    expect((await api.patch(stranger.browser, 'not-a-uuid', {})).status).toBe(
      404,
    )
    expect((await api.sourceRow(id)).name).toBe('Mine')
  })

  it('refuses a database write of a name past the limit, whoever writes it', async () => {
    const { browser, teamId } = await api.signIn()
    const { id } = createSourceResponseSchema.parse(
      (await addSource(browser, teamId)).body,
    )
    for (const name of ['', 'n'.repeat(NAME_MAX_LENGTH + 1)])
      await expect(
        api.db.query('update sources set name = $2 where id = $1', [id, name]),
      ).rejects.toThrow(/sources_name_length/)
  })
})
