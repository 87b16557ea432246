// A source's project and environment: set when adding it (PUT /api/v1/sources), changed or
// cleared with PATCH /api/v1/sources/{id} by members of its team only, bounded by the API
// and by the table.
import { describe, expect, it } from 'vitest'
import { SOURCE_TAG_MAX_LENGTH } from '../../src/shared/constants.ts'
import {
  createSourceResponseSchema,
  updateSourceResponseSchema,
} from '../../src/shared/sources.ts'
import type { Browser } from '../support/app.ts'
import { skip, useSourcesApi } from '../support/sources-api.ts'

const api = useSourcesApi()

async function addSource(
  browser: Browser,
  teamId: string,
  fields: Record<string, unknown> = {},
) {
  const { url } = await api.readyDatabase()
  return api.put(
    browser,
    { region: 'eu-west-1', team_id: teamId, database_url: url, ...fields },
    skip,
  )
}

async function tags(id: unknown) {
  const { rows } = await api.db.query<{
    project: string | null
    environment: string | null
  }>('select project, environment from sources where id = $1', [id])
  return rows[0]
}

describe('a project and an environment when adding a source', () => {
  it('stores them trimmed, and none when blank, null or absent', async () => {
    const { browser, teamId } = await api.signIn()
    const tagged = await addSource(browser, teamId, {
      project: ' my-app ',
      environment: 'pr-123',
    })
    expect(tagged.status).toBe(201)
    const { id } = createSourceResponseSchema.parse(tagged.body)
    expect(await tags(id)).toEqual({ project: 'my-app', environment: 'pr-123' })
    const listed = (await (await browser.get('/api/v1/sources')).json()) as {
      id: string
    }[]
    expect(listed.find((source) => source.id === id)).toMatchObject({
      project: 'my-app',
      environment: 'pr-123',
    })

    for (const value of ['  ', null, undefined]) {
      const answer = await addSource(browser, teamId, {
        project: value,
        environment: value,
      })
      expect(answer.status).toBe(201)
      expect(await tags(answer.body.id)).toEqual({
        project: null,
        environment: null,
      })
    }
  })

  it('refuses a value too long or with other characters with a 400 naming the field', async () => {
    const { browser, teamId } = await api.signIn()
    const long = await addSource(browser, teamId, {
      project: 'p'.repeat(SOURCE_TAG_MAX_LENGTH + 1),
    })
    expect(long.status).toBe(400)
    expect(long.body.message).toBe(
      `project: Project must be at most ${SOURCE_TAG_MAX_LENGTH} characters`,
    )
    const spaced = await addSource(browser, teamId, {
      environment: 'pr 123',
    })
    expect(spaced.status).toBe(400)
    expect(spaced.body.message).toBe(
      'environment: Environment may hold only letters, digits and - _ . /',
    )
    expect(
      (await addSource(browser, teamId, { project: 7 })).body.message,
    ).toMatch(/^project: /)
    expect(await api.teamSources(teamId)).toBe(0)
  })
})

describe('changing them with PATCH /api/v1/sources/{id}', () => {
  it('sets each one sent in the transaction it answers, and leaves the others', async () => {
    const { browser, teamId } = await api.signIn()
    const { id } = createSourceResponseSchema.parse(
      (await addSource(browser, teamId, { name: 'Orders' })).body,
    )
    const set = await api.patch(browser, id, {
      project: 'my-app',
      environment: 'production',
    })
    expect(set.status).toBe(200)
    const answer = updateSourceResponseSchema.parse(set.body)
    expect(answer).toEqual({
      id,
      name: 'Orders',
      project: 'my-app',
      environment: 'production',
      txid: expect.any(Number),
    })
    const row = await api.sourceRow(id)
    expect(Number(row.xmin)).toBe(answer.txid)

    const moved = await api.patch(browser, id, { environment: 'staging' })
    expect(moved.body).toMatchObject({
      name: 'Orders',
      project: 'my-app',
      environment: 'staging',
    })
    // A rename alone keeps them.
    await api.patch(browser, id, { name: 'Billing' })
    expect(await tags(id)).toEqual({
      project: 'my-app',
      environment: 'staging',
    })
  })

  it('clears one with null or an empty string', async () => {
    const { browser, teamId } = await api.signIn()
    const { id } = createSourceResponseSchema.parse(
      (
        await addSource(browser, teamId, {
          project: 'my-app',
          environment: 'pr-7',
        })
      ).body,
    )
    const cleared = await api.patch(browser, id, { project: null })
    expect(cleared.status).toBe(200)
    expect(cleared.body).toMatchObject({ project: null, environment: 'pr-7' })
    expect(await tags(id)).toEqual({ project: null, environment: 'pr-7' })
    await api.patch(browser, id, { environment: '' })
    expect(await tags(id)).toEqual({ project: null, environment: null })
  })

  it('refuses a bad value or an empty body with a 400 and changes nothing', async () => {
    const { browser, teamId } = await api.signIn()
    const { id } = createSourceResponseSchema.parse(
      (await addSource(browser, teamId, { project: 'kept' })).body,
    )
    const long = await api.patch(browser, id, {
      environment: 'e'.repeat(SOURCE_TAG_MAX_LENGTH + 1),
    })
    expect(long.status).toBe(400)
    expect(long.body.message).toBe(
      `environment: Environment must be at most ${SOURCE_TAG_MAX_LENGTH} characters`,
    )
    const odd = await api.patch(browser, id, { project: 'my app!' })
    expect(odd.status).toBe(400)
    expect(odd.body.message).toBe(
      'project: Project may hold only letters, digits and - _ . /',
    )
    const empty = await api.patch(browser, id, {})
    expect(empty.status).toBe(400)
    expect(empty.body.message).toBe(
      'Send at least one of name, project and environment',
    )
    const atLimit = 'a/b.c_d-'.repeat(SOURCE_TAG_MAX_LENGTH / 8)
    expect(
      (await api.patch(browser, id, { environment: atLimit })).status,
    ).toBe(200)
    expect(await tags(id)).toEqual({ project: 'kept', environment: atLimit })
  })

  it("answers 404 to another team's member, exactly like a missing source", async () => {
    const owner = await api.signIn()
    const stranger = await api.signIn()
    const { id } = createSourceResponseSchema.parse(
      (await addSource(owner.browser, owner.teamId, { project: 'mine' })).body,
    )
    const theirs = await api.patch(stranger.browser, id, { project: 'stolen' })
    expect(theirs.status).toBe(404)
    const missing = await api.patch(
      stranger.browser,
      '00000000-0000-4000-8000-000000000000',
      { project: 'stolen' },
    )
    expect(missing.status).toBe(404)
    expect(theirs.body).toEqual(missing.body)
    expect(await tags(id)).toEqual({ project: 'mine', environment: null })
  })

  it('are bounded by the table too, whoever writes them', async () => {
    const { browser, teamId } = await api.signIn()
    const { id } = createSourceResponseSchema.parse(
      (await addSource(browser, teamId)).body,
    )
    for (const [column, value] of [
      ['project', ''],
      ['project', 'p'.repeat(SOURCE_TAG_MAX_LENGTH + 1)],
      ['environment', 'pr 1'],
    ] as const)
      await expect(
        api.db.query(`update sources set ${column} = $2 where id = $1`, [
          id,
          value,
        ]),
      ).rejects.toThrow(new RegExp(`sources_${column}_format`))
  })
})
