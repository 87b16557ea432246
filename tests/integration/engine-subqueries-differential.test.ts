// Subquery shapes against random workloads: after every transaction, each TanStack DB
// collection (the reference consumer of tags and move events) holds exactly what the same
// where clause selects in Postgres. The workloads come from seeds; SUBQUERY_SEED replays one,
// SUBQUERY_TRANSACTIONS makes the runs longer.
import { createCollection } from '@tanstack/db'
import { electricCollectionOptions } from '@tanstack/electric-db-collection'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'
import {
  prng,
  workload,
  WORKLOAD_SCHEMA,
} from '../support/subquery-workload.ts'

const SEEDS = process.env.SUBQUERY_SEED
  ? [Number(process.env.SUBQUERY_SEED)]
  : [1, 2, 3, 4]
const TRANSACTIONS = Number(process.env.SUBQUERY_TRANSACTIONS ?? 60)

// Every dependency column a NOT IN reads is NOT NULL, and nothing nests: a NULL in a NOT IN's
// result or a nested result changing restarts the shape, which is not what this test is about.
const SHAPES: Array<{ where: string; params?: string[] }> = [
  { where: 'project_id IN (SELECT id FROM projects WHERE archived = false)' },
  {
    where: 'project_id IN (SELECT id FROM projects WHERE team_id = $1)',
    params: ['1'],
  },
  {
    where: 'project_id NOT IN (SELECT id FROM projects WHERE archived = true)',
  },
  {
    where:
      'owner_id IN (SELECT user_id FROM members WHERE team_id = $1) AND done = false',
    params: ['2'],
  },
  {
    where:
      'project_id IN (SELECT id FROM projects WHERE team_id = 2) OR done = true',
  },
  {
    where:
      'project_id IN (SELECT id FROM projects WHERE team_id = 1) OR owner_id IN (SELECT user_id FROM members WHERE team_id = 3)',
  },
  {
    where:
      'NOT (project_id IN (SELECT id FROM projects WHERE archived = false) AND done = false)',
  },
  {
    where: '(project_id, owner_id) IN (SELECT team_id, user_id FROM members)',
  },
  {
    where:
      'project_id IN (SELECT id FROM projects WHERE archived = false) AND owner_id IN (SELECT user_id FROM members WHERE team_id = $1)',
    params: ['1'],
  },
]

type Task = {
  id: string
  project_id: string | null
  owner_id: string | null
  title: string
  done: boolean
}

let source: TestDatabase
let engine: TestEngine
const cleanups: Array<() => void> = []

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(WORKLOAD_SCHEMA)
  engine = await startTestEngine(source.url)
}, 60_000)

afterAll(async () => {
  for (const cleanup of cleanups) cleanup()
  await engine?.destroy()
  await source?.drop()
})

// Without the `$key`, `$synced`… virtual properties TanStack DB adds to the rows it hands out.
const fields = ({ id, project_id, owner_id, title, done }: Task): Task => ({
  id,
  project_id,
  owner_id,
  title,
  done,
})
const byId = (a: Task, b: Task) => Number(a.id) - Number(b.id)

async function selected(shape: (typeof SHAPES)[number]): Promise<Task[]> {
  const { rows } = await source.db.query<Task>(
    `select id::text, project_id::text, owner_id::text, title, done from tasks where ${shape.where}`,
    shape.params,
  )
  return rows.sort(byId)
}

/** The shape's messages from offset -1 to up-to-date, a line each: what a failure is made of. */
async function served(shape: (typeof SHAPES)[number]): Promise<string[]> {
  const query = new URLSearchParams({ table: 'tasks', where: shape.where })
  for (const [i, p] of (shape.params ?? []).entries())
    query.set(`params[${i + 1}]`, p)
  const lines: string[] = []
  let at = 'offset=-1'
  for (let page = 0; page < 100; page++) {
    const response = await fetch(`${engine.shapeUrl}?${query}&${at}`)
    if (response.status !== 200) return [...lines, `status ${response.status}`]
    const offset = response.headers.get('electric-offset') ?? ''
    const messages = (await response.json()) as Array<Record<string, unknown>>
    for (const { key, value, headers } of messages)
      lines.push(
        `${offset} ${String(key ?? '')} ${JSON.stringify(value ?? {})} ${JSON.stringify(headers)}`,
      )
    if (response.headers.has('electric-up-to-date')) return lines
    at = `offset=${offset}&handle=${response.headers.get('electric-handle')}`
  }
  return lines
}

/** One seed's workload, from empty tables: the shapes of the seed before end with the truncate. */
async function differential(seed: number): Promise<void> {
  for (const cleanup of cleanups.splice(0)) cleanup()
  await source.db.query('truncate tasks, projects, members')
  const random = prng(seed)
  const work = workload(random)
  const initial = work.initial()
  await source.db.query(initial)

  const collections = SHAPES.map((shape, i) => {
    const collection = createCollection(
      electricCollectionOptions<Task>({
        id: `differential-${seed}-${i}`,
        getKey: (t) => t.id,
        shapeOptions: {
          url: engine.shapeUrl,
          params: { table: 'tasks', where: shape.where, params: shape.params },
          parser: { int8: (v: string) => v },
        },
      }),
    )
    cleanups.push(() => void collection.cleanup())
    return { shape, collection }
  })
  await Promise.all(collections.map(({ collection }) => collection.preload()))

  const history = [`-- initial\n${initial};`]
  const agree = async (step: string) => {
    for (const { shape, collection } of collections) {
      const want = await selected(shape)
      try {
        await expect
          .poll(() => collection.toArray.map(fields).sort(byId), {
            timeout: 10_000,
          })
          .toEqual(want)
      } catch (error) {
        throw new Error(
          [
            `seed ${seed}, ${step}: shape \`${shape.where}\` params ${JSON.stringify(shape.params ?? [])} differs from Postgres (collection vs select)`,
            String(error),
            'transactions so far:',
            ...history,
            'what the engine serves from offset -1:',
            ...(await served(shape)),
          ].join('\n'),
          { cause: error },
        )
      }
    }
  }

  await agree('initial rows')
  for (let i = 0; i < TRANSACTIONS; i++) {
    const sql = work.transaction()
    history.push(`-- transaction ${i}\n${sql};`)
    await source.db.query(sql)
    await agree(`transaction ${i}`)
  }
}

it.each(SEEDS)(
  'keeps every subquery shape equal to Postgres under random transactions (seed %i)',
  differential,
  180_000,
)
