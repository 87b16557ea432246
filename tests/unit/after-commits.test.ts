// pglite-sync on real PGlite, following a scripted server while the store is busy (a tab's
// transaction holds it): every state it commits must resume from an offset no later than the
// rows it holds, or a worker stopped after that commit leaves rows no resumed sync fetches
// again (fault F10). The catch-up's next chunk is fetched ahead (the client prefetches it)
// before the first chunk's commit can run.
import { PGlite } from '@electric-sql/pglite'
import { electricSync } from '@electric-sql/pglite-sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { afterCommits } from '../../src/app/db/worker/after-commits.ts'
import { waitUntil } from '../support/wait.ts'

type Answer = { offset: string; upToDate: boolean; rows: number[] }
// By the offset asked: a catch-up of two chunks. Row n is written by the transaction at lsn
// 10n, and each chunk ends after its last transaction.
const ANSWERS: Record<string, Answer> = {
  '-1': { offset: '100_0', upToDate: false, rows: [1, 2] },
  '100_0': { offset: '200_0', upToDate: true, rows: [3] },
}
// How many rows a store resuming from each offset must hold.
const HELD_AT: Record<string, number> = { '100_0': 2, '200_0': 3 }

function answer({ offset, upToDate, rows }: Answer): Response {
  const messages: unknown[] = rows.map((id) => ({
    key: `"public"."items"/"${id}"`,
    value: { id: String(id) },
    headers: { operation: 'insert', lsn: String(id * 10), last: true },
  }))
  if (upToDate)
    messages.push({
      headers: { control: 'up-to-date', global_last_seen_lsn: '30' },
    })
  const headers: Record<string, string> = {
    'electric-offset': offset,
    'electric-handle': 'h1',
    'electric-schema': JSON.stringify({ id: { type: 'int4' } }),
    'electric-cursor': '1',
  }
  if (upToDate) headers['electric-up-to-date'] = ''
  return new Response(JSON.stringify(messages), { headers })
}

const openStore = () =>
  PGlite.create({ extensions: { electric: electricSync() } })

describe('a shape answer and the commit before it', () => {
  let pg: Awaited<ReturnType<typeof openStore>>
  beforeAll(async () => {
    pg = await openStore()
    await pg.electric.initMetadataTables()
    // Each state the subscription commits: the offset it resumes from, the rows it holds.
    await pg.exec(`
      create table items (id int primary key);
      create table committed (resume text, held int);
      create function audit() returns trigger language plpgsql as $$ begin
        insert into committed
          select new.shape_metadata -> 'items' ->> 'offset', count(*) from items;
        return new;
      end $$;
      create trigger audit after insert or update on electric.subscriptions_metadata
        for each row execute function audit();`)
  }, 120_000)
  afterAll(() => pg.close())

  it('commits each answer with its own offset while the next one is already in', async () => {
    const asked: string[] = []
    // The server: scripted answers, the first once the tab holds the store; a live request
    // waits until the stream stops.
    let go = () => {}
    const started = new Promise<void>((resolve) => (go = resolve))
    const server: typeof fetch = (input, init) => {
      const url = new URL(String(input))
      const offset = url.searchParams.get('offset')!
      asked.push(offset)
      const scripted = ANSWERS[offset]
      if (scripted && !url.searchParams.has('live'))
        return started.then(() => answer(scripted))
      return new Promise((_, reject) =>
        init?.signal?.addEventListener('abort', () =>
          reject(new DOMException('stopped', 'AbortError')),
        ),
      )
    }
    // What the fix asks of the store, seen: it holds an answer until the commits before it ran.
    let heldForCommits = false
    const store = {
      query: <T>(sql: string) => {
        heldForCommits = true
        return pg.query<T>(sql)
      },
    }
    const sub = await pg.electric.syncShapesToTables({
      key: 'items',
      shapes: {
        items: {
          shape: {
            url: 'http://server/v1/items',
            fetchClient: afterCommits(store, server),
          },
          table: 'items',
          primaryKey: ['id'],
        },
      },
    })
    // A tab's transaction holds the store while the answers arrive.
    let release = () => {}
    let holding = false
    const tab = pg.transaction(
      () =>
        new Promise<void>((resolve) => {
          holding = true
          release = resolve
        }),
    )
    await waitUntil('the tab to hold the store', () => holding)
    go()
    // Either the stream went on past both answers (their commits queued behind the tab), or
    // it waits for the store before it takes the first.
    await waitUntil(
      'the stream to move on, or to wait for the store',
      () => asked.includes('200_0') || heldForCommits,
    )
    release()
    await tab
    await waitUntil('both answers to be committed', async () => {
      const { rows } = await pg.query<{ n: number }>(
        `select count(*)::int as n from committed where resume = '200_0'`,
      )
      return rows[0]!.n > 0
    })
    sub.unsubscribe()

    const { rows } = await pg.query<{ resume: string; held: number }>(
      'select resume, held from committed',
    )
    expect(rows.length).toBeGreaterThan(0)
    for (const { resume, held } of rows)
      expect({ resume, held }).toEqual({ resume, held: HELD_AT[resume] })
  })
})
