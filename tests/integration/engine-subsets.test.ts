// Changes-only shapes and subset snapshots over raw HTTP (docs/protocol.md): what a changes-only
// shape's first answer holds, the subset answer's body and headers, and its refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_BODY_BYTES } from '../../src/engine/http/read-body.ts'
import { MAX_SUBSET_LIMIT } from '../../src/engine/http/subset-request.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'

let source: TestDatabase
let engine: TestEngine

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(`
    create table tasks (id int primary key, title text, team text, rank int);
    insert into tasks values
      (1, 'one', 'a', 10), (2, 'two', 'a', 30), (3, 'three', 'b', 20),
      (4, 'four', 'a', 20), (5, 'five', 'z', 50), (6, 'six', 'a', null)`)
  engine = await startTestEngine(source.url)
}, 60_000)

afterAll(async () => {
  await engine?.destroy()
  await source?.drop()
})

type Message = {
  key?: string
  value?: Record<string, unknown>
  headers: Record<string, unknown>
}

const url = (query: string) => `${engine.shapeUrl}?table=tasks&${query}`
const enc = encodeURIComponent
// The shape: every team but z ($1), so the subset's own params must follow the shape's.
const SHAPE = `where=${enc('team <> $1')}&params[1]=z&log=changes_only`

describe('a changes-only shape', () => {
  it('is its own shape, and its log starts empty: only a snapshot-end, no rows', async () => {
    const full = await fetch(
      url(`${SHAPE.replace('&log=changes_only', '')}&offset=-1`),
    )
    const first = await fetch(url(`${SHAPE}&offset=-1`))
    expect(first.status).toBe(200)
    const handle = first.headers.get('electric-handle')
    expect(handle).toBeTruthy()
    expect(handle).not.toBe(full.headers.get('electric-handle'))
    // A snapshot of one chunk, numbered as Electric numbers it.
    expect(first.headers.get('electric-offset')).toBe('0_0')
    expect(first.headers.has('electric-up-to-date')).toBe(false)
    expect(first.headers.get('electric-schema')).toContain('"rank"')
    expect(await first.json()).toEqual([
      {
        headers: {
          control: 'snapshot-end',
          xmin: expect.stringMatching(/^\d+$/),
          xmax: expect.stringMatching(/^\d+$/),
          xip_list: expect.any(Array),
        },
      },
    ])
    // The full shape's snapshot ends the same way, after its rows.
    const rows = (await full.json()) as Message[]
    expect(rows.filter((m) => m.value)).toHaveLength(5)
    expect(rows.at(-1)?.headers.control).toBe('snapshot-end')
  })

  it('refuses an unknown log mode', async () => {
    const bad = await fetch(url('offset=-1&log=some'))
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({
      message: 'Invalid request',
      errors: { log: ['is invalid'] },
    })
  })
})

describe('subset snapshots', () => {
  const subset = (query: string, init?: RequestInit) =>
    fetch(url(`${SHAPE}&offset=-1&${query}`), init)

  it('answers the rows of the shape and the subset, ordered and limited, with the snapshot', async () => {
    const answer = await subset(
      `subset__where=${enc('rank >= $1')}&subset__params=${enc('{"1":"15"}')}` +
        `&subset__order_by=${enc('rank desc, id')}&subset__limit=3`,
    )
    expect(answer.status).toBe(200)
    const h = answer.headers
    expect(h.get('electric-snapshot')).toBe('true')
    expect(h.get('cache-control')).toBe('no-cache')
    expect(h.get('content-type')).toBe('application/json')
    expect(h.get('electric-handle')).toBeTruthy()
    expect(h.get('electric-schema')).toContain('"title"')
    expect(h.get('electric-offset')).toBe('-1')
    expect(h.has('etag')).toBe(false)
    expect(h.has('electric-up-to-date')).toBe(false)
    const body = (await answer.json()) as {
      metadata: Record<string, unknown>
      data: Message[]
    }
    expect(body.metadata).toEqual({
      xmin: expect.stringMatching(/^\d+$/),
      xmax: expect.stringMatching(/^\d+$/),
      xip_list: expect.any(Array),
      database_lsn: expect.stringMatching(/^\d+$/),
      snapshot_mark: expect.any(Number),
    })
    // Team z (rank 50) is outside the shape; rank 10 and NULL outside the subset.
    expect(body.data.map((m) => m.value?.id)).toEqual(['2', '3', '4'])
    expect(body.data[0]).toEqual({
      key: '"public"."tasks"/"2"',
      value: { id: '2', title: 'two', team: 'a', rank: '30' },
      headers: {
        operation: 'insert',
        relation: ['public', 'tasks'],
        snapshot_mark: body.metadata.snapshot_mark,
      },
    })
  })

  it('says in its metadata which transactions its rows hold, as the client dedupes by', async () => {
    const xidOf = async (sql: string) => {
      const client = await source.db.connect()
      try {
        await client.query('begin')
        await client.query(sql)
        const { rows } = await client.query<{ xid: string }>(
          'select pg_current_xact_id()::text as xid',
        )
        await client.query('commit')
        return BigInt(rows[0]?.xid ?? '0')
      } finally {
        client.release()
      }
    }
    const before = await xidOf(`update tasks set title = 'one' where id = 1`)
    const answer = await subset(`subset__where=${enc('id = 1')}`)
    const { metadata } = (await answer.json()) as {
      metadata: { xmin: string; xmax: string; xip_list: string[] }
    }
    const after = await xidOf(`update tasks set title = 'one' where id = 1`)
    const xmin = BigInt(metadata.xmin)
    const xmax = BigInt(metadata.xmax)
    const inProgress = metadata.xip_list.map(BigInt)
    // Committed before: visible in the snapshot. Begun after: at or past xmax.
    expect(
      before < xmin || (before < xmax && !inProgress.includes(before)),
    ).toBe(true)
    expect(after >= xmax).toBe(true)
  })

  it('takes params as params[n] keys, offset pages, and NULLS FIRST', async () => {
    const page = await subset(
      `subset__where=${enc('team = $1')}&subset__params[1]=a` +
        `&subset__order_by=${enc('rank nulls first')}&subset__limit=2&subset__offset=1`,
    )
    const body = (await page.json()) as { data: Message[] }
    expect(body.data.map((m) => m.value?.id)).toEqual(['1', '4'])
  })

  it('is never revalidated: no 304, a new mark each time', async () => {
    const query = `subset__where=${enc('id = 1')}`
    const one = (await (await subset(query)).json()) as {
      metadata: { snapshot_mark: number }
    }
    const again = await subset(query, { headers: { 'if-none-match': '*' } })
    expect(again.status).toBe(200)
    const two = (await again.json()) as { metadata: { snapshot_mark: number } }
    expect(two.metadata.snapshot_mark).not.toBe(one.metadata.snapshot_mark)
  })

  it('keeps the position of a client at offset=now: the answer names the shape’s last offset', async () => {
    const first = await fetch(url(`${SHAPE}&offset=-1`))
    const handle = first.headers.get('electric-handle') ?? ''
    // A change in the log, so its last offset is past the snapshot's end. Followed live until
    // it is there: an earlier test's change could otherwise still be arriving.
    await source.db.query(`update tasks set title = 'three!' where id = 3`)
    let offset = first.headers.get('electric-offset') ?? ''
    for (let seen = false; !seen;) {
      const page = await fetch(
        url(`${SHAPE}&offset=${offset}&handle=${handle}&live=true`),
      )
      seen = (await page.text()).includes('three!')
      offset = page.headers.get('electric-offset') ?? offset
    }
    const now = await fetch(url(`${SHAPE}&offset=now`))
    expect(now.headers.get('electric-offset')).toBe(offset)
    const answer = await fetch(
      url(
        `${SHAPE}&offset=now&handle=${handle}&subset__where=${enc('id = 2')}`,
      ),
    )
    expect(answer.headers.get('electric-offset')).toBe(
      now.headers.get('electric-offset'),
    )
    const tail = await fetch(
      url(
        `${SHAPE}&offset=0_inf&handle=${handle}&subset__where=${enc('id = 2')}`,
      ),
    )
    expect(tail.headers.get('electric-offset')).toBe('0_inf')
  })

  it('streams a subset larger than it reads ahead, every row once', async () => {
    await source.db.query(`
      create table wide (id int primary key, body text);
      insert into wide select i, repeat(md5(i::text), 6) from generate_series(1, 30000) i`)
    const answer = await fetch(
      `${engine.shapeUrl}?table=wide&offset=-1&subset__where=${enc('id % 2 = 0')}`,
    )
    expect(answer.status).toBe(200)
    const { data } = (await answer.json()) as { data: Message[] }
    expect(data).toHaveLength(15000)
    expect(new Set(data.map((m) => m.value?.id)).size).toBe(15000)
    expect(data.every((m) => Number(m.value?.id) % 2 === 0)).toBe(true)
  })

  it('takes the POST form: the shape in the query, the subset in a JSON body', async () => {
    const post = (body: unknown) =>
      fetch(url(`${SHAPE}&offset=-1`), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    for (const body of [
      { where: 'team = $1', params: { '1': 'a' }, order_by: 'id', limit: 2 },
      {
        subset: { where: 'team = $1', params: ['a'], order_by: 'id', limit: 2 },
      },
    ]) {
      const answer = await post(body)
      expect(answer.status).toBe(200)
      expect(answer.headers.get('electric-snapshot')).toBe('true')
      const { data } = (await answer.json()) as { data: Message[] }
      expect(data.map((m) => m.value?.id)).toEqual(['1', '2'])
    }
  })

  it('refuses bad subsets with 400s in Electric’s format, never cached', async () => {
    const cases: Array<[string, Record<string, string[]>]> = [
      [
        'subset__limit=2',
        { order_by: ['order_by is required when limit or offset is present'] },
      ],
      [
        `subset__limit=${MAX_SUBSET_LIMIT + 1}&subset__order_by=id`,
        { limit: [`must be less than or equal to ${MAX_SUBSET_LIMIT}`] },
      ],
      [
        'subset__limit=0&subset__order_by=id',
        { limit: ['must be greater than 0'] },
      ],
      ['subset__offset=x&subset__order_by=id', { offset: ['is invalid'] }],
      [
        `subset__where=id&subset__params=${enc('[1')}`,
        { params: ['params must be valid JSON'] },
      ],
      [
        `subset__where=${enc('id = $1')}&subset__params=${enc('{"2":"1"}')}`,
        { params: ['keys must be consecutive integers starting at 1'] },
      ],
      [
        `subset__where=${enc('nope = 1')}`,
        { where: [expect.stringContaining('nope') as string] },
      ],
      [
        `subset__where=${enc('id = 1; drop table tasks')}`,
        {
          where: [expect.stringContaining('statement split') as string],
        },
      ],
      [
        `subset__where=${enc('id = 1')}&subset__order_by=${enc('id; drop table tasks')}`,
        { order_by: ['malformed order_by'] },
      ],
      [
        `subset__where=${enc('id = 1')}&subset__order_by=1`,
        {
          order_by: ['each order_by key must use a column'],
        },
      ],
    ]
    for (const [query, errors] of cases) {
      const answer = await subset(query)
      expect(answer.status, query).toBe(400)
      expect(answer.headers.get('cache-control')).toBe('no-store')
      expect(await answer.json(), query).toEqual({
        message: 'Invalid request',
        errors: { subset: errors },
      })
    }
    // Postgres's own refusal (json has no ordering) is the client's mistake too.
    await source.db.query(`create table docs (id int primary key, meta json)`)
    const unordered = await fetch(
      `${engine.shapeUrl}?table=docs&offset=-1&subset__order_by=meta&subset__limit=1`,
    )
    expect(unordered.status).toBe(400)
    expect(await unordered.json()).toEqual({
      message: 'Invalid request',
      errors: {
        subset: {
          where: [expect.stringContaining('could not identify an ordering')],
        },
      },
    })
    const { count } = (
      await source.db.query<{ count: string }>('select count(*) from tasks')
    ).rows[0] ?? { count: '' }
    expect(count).toBe('6')
  })

  it('filters and orders by the shape’s own columns only', async () => {
    const narrow = `${engine.shapeUrl}?table=tasks&columns=id,title&offset=-1`
    const hidden = await fetch(`${narrow}&subset__where=${enc("team = 'a'")}`)
    expect(hidden.status).toBe(400)
    const ordered = await fetch(
      `${narrow}&subset__where=${enc('id < 3')}&subset__order_by=rank&subset__limit=1`,
    )
    expect(ordered.status).toBe(400)
    const shown = await fetch(
      `${narrow}&subset__where=${enc("title = 'one'")}&subset__order_by=id&subset__limit=1`,
    )
    const { data } = (await shown.json()) as { data: Message[] }
    expect(data.map((m) => m.value)).toEqual([{ id: '1', title: 'one' }])
  })

  it('refuses a body that is too large (413) or not a JSON object (400)', async () => {
    const post = (body: string) =>
      fetch(url(`${SHAPE}&offset=-1`), { method: 'POST', body })
    const big = await post(
      JSON.stringify({ where: `id = ${'1'.repeat(MAX_BODY_BYTES)}` }),
    )
    expect(big.status).toBe(413)
    expect(await big.json()).toEqual({ error: 'Request body too large' })
    // Without a content-length (a stream), the body is counted as it arrives.
    const bytes = new TextEncoder().encode(' '.repeat(64 * 1024))
    let sent = 0
    const streamed = await fetch(url(`${SHAPE}&offset=-1`), {
      method: 'POST',
      body: new ReadableStream({
        pull(controller) {
          if (sent > MAX_BODY_BYTES) return controller.close()
          sent += bytes.length
          controller.enqueue(bytes)
        },
      }),
      duplex: 'half',
    } as RequestInit)
    expect(streamed.status).toBe(413)
    // Within the body's bound, the where compiler's own limits still hold.
    const long = await post(
      JSON.stringify({ where: 'id > 0 and '.repeat(7000) + 'true' }),
    )
    expect(long.status).toBe(400)
    expect(await long.json()).toEqual({
      message: 'Invalid request',
      errors: {
        subset: {
          where: ['where clause is too long (more than 65536 characters)'],
        },
      },
    })
    const deep = await post(
      JSON.stringify({ where: `${'not '.repeat(500)}true` }),
    )
    expect(deep.status).toBe(400)
    expect(await deep.json()).toEqual({
      message: 'Invalid request',
      errors: {
        subset: {
          where: [expect.stringContaining('nested too deeply') as string],
        },
      },
    })
    const list = await post('[1]')
    expect(list.status).toBe(400)
    expect(await list.json()).toEqual({
      error: 'Request body must be a JSON object',
    })
    const broken = await post('{')
    expect(broken.status).toBe(400)
    expect(await broken.json()).toMatchObject({
      error: 'Invalid JSON in request body',
    })
  })
})
