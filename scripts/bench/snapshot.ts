// The initial-snapshot figures (`npm run bench:engine -- --only snapshot`): a 1,000,000-row
// table (an int key, a uuid, two text columns, a timestamptz, a jsonb: about 150 bytes a row)
// read to up to date by one official client, as a ratio to the floor (the same rows read with
// `COPY (SELECT …) TO STDOUT` by a Node client in the same run); when its first rows arrive;
// the engine's RSS growth meanwhile (and for 3,000,000 rows); ten clients asking for one new
// shape at once (snapshot queries it took), a hundred joining it after; and a where on an
// indexed column selecting 1% of the rows against the same rows by primary key. The clients
// run in a process of their own (snapshot-reader.ts).
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type pg from 'pg'
import type { RunningEngine } from './env.ts'
import type {
  Checksum,
  ClientRead,
  ReaderResult,
  ReaderTask,
} from './snapshot-reader.ts'

export const SNAPSHOT_TARGETS = {
  /** End-to-end rows/s at least this share of the COPY floor's. */
  ratio: 0.6,
  firstRowsMs: 300,
  rssGrowthMb: 64,
  /** A where on an indexed column, against the same rows by primary key. */
  filteredRatio: 3,
}

export type SnapshotFigures = {
  rows: number
  rowsPerSec: number
  floorRowsPerSec: number
  ratio: number
  /** The same shape read again by a new client, from the log: the client's own ceiling. */
  rereadRowsPerSec: number
  firstRowsMs: number | null
  rssGrowthMb: number
  /** Of it, at their peaks: the JavaScript heap, and memory outside it (Buffers). */
  heapGrowthMb: number
  externalGrowthMb: number
  /** The same read of a table three times as large: flat memory does not grow with it. */
  large: {
    rows: number
    rowsPerSec: number
    rssGrowthMb: number
    heapGrowthMb: number
    externalGrowthMb: number
  } | null
  concurrentClients: number
  snapshotQueries: number
  /** Clients joining the shape once it exists, and the snapshot queries they caused. */
  joining: { clients: number; snapshotQueries: number }
  filtered: { rows: number; ms: number; byKeyMs: number; ratio: number }
  failures: string[]
}

const COLUMNS = 'id, uid, a, b, at, doc'
const START = '2026-01-01 00:00:00+00'
const CONCURRENT = 10
const JOINING = 100

const tableSql = (name: string, rows: number) => `
  create table ${name} (id int primary key, uid uuid not null, a text, b text,
    at timestamptz not null, doc jsonb);
  insert into ${name}
    select i, md5(i::text)::uuid, md5('a' || i), md5('b' || i),
      timestamptz '${START}' + i * interval '1 second',
      jsonb_build_object('n', i, 'tag', 't' || (i % 100))
    from generate_series(1, ${rows}) i;
  create index on ${name} (at);`

/** Runs one task in a reader process of its own. */
function inReader(task: ReaderTask): Promise<ReaderResult> {
  const child = fork(
    fileURLToPath(new URL('./snapshot-reader.ts', import.meta.url)),
    [],
    { execArgv: ['--import', 'tsx', '--max-old-space-size=8192'] },
  )
  return new Promise((resolve, reject) => {
    child.once(
      'message',
      (message: { result?: ReaderResult; error?: string }) => {
        if (message.result) resolve(message.result)
        else reject(new Error(`reader: ${message.error}`))
      },
    )
    child.once('exit', (code) =>
      reject(new Error(`reader exited (${code}) without an answer`)),
    )
    child.send(task)
  })
}

async function readShape(
  running: RunningEngine,
  spec: { table: string; where?: string; params?: string[] },
  clients = 1,
  keep = false,
): Promise<ClientRead[]> {
  const result = await inReader({
    kind: 'shape',
    shapeUrl: running.shapeUrl,
    ...spec,
    clients,
    keep,
  })
  if (result.kind !== 'shape') throw new Error('reader answered a copy')
  return result.reads
}

/** What grew in the engine process while `run` ran, at the peak of each, in MB. */
type Growth = {
  mb: number
  /** The JavaScript heap (committed), and memory outside it (Buffers' bytes among it). */
  heapMb: number
  externalMb: number
}

/** The engine's peak RSS growth (this process) while `run` runs, and what it was made of. */
async function rssGrowth<T>(
  run: () => Promise<T>,
): Promise<{ result: T } & Growth> {
  const before = process.memoryUsage()
  let rss = before.rss
  let heap = before.heapTotal
  let external = before.external
  const sample = () => {
    const now = process.memoryUsage()
    rss = Math.max(rss, now.rss)
    heap = Math.max(heap, now.heapTotal)
    external = Math.max(external, now.external)
  }
  const timer = setInterval(sample, 20)
  const mb = (bytes: number) => round(bytes / 2 ** 20, 1)
  try {
    const result = await run()
    sample()
    return {
      result,
      mb: mb(rss - before.rss),
      heapMb: mb(heap - before.heapTotal),
      externalMb: mb(external - before.external),
    }
  } finally {
    clearInterval(timer)
  }
}

async function truthOf(admin: pg.Client, table: string): Promise<Checksum> {
  const { rows } = await admin.query<{ ids: string; uids: string }>(
    `select sum(id)::text as ids,
       sum(('x' || left(uid::text, 8))::bit(32)::bigint)::text as uids
     from ${table}`,
  )
  return { ids: rows[0]?.ids ?? '0', uids: rows[0]?.uids ?? '0' }
}

const round = (n: number, digits = 0) => Number(n.toFixed(digits))

export async function measureSnapshots(ctx: {
  admin: pg.Client
  pgUrl: string
  running: RunningEngine
  rows: number
  largeRows: number | null
  log: (line: string) => void
}): Promise<SnapshotFigures> {
  const { admin, running, log } = ctx
  const failures: string[] = []
  const check = (
    what: string,
    read: ClientRead,
    rows: number,
    sum: Checksum,
  ) => {
    if (read.rows !== rows)
      failures.push(`${what}: got ${read.rows} of ${rows} rows`)
    else if (read.checksum.ids !== sum.ids || read.checksum.uids !== sum.uids)
      failures.push(`${what}: the rows' checksum differs from the table's`)
  }

  log(`snapshot: seeding ${ctx.rows} rows`)
  await admin.query(tableSql('big', ctx.rows))
  await admin.query('vacuum analyze big')
  const truth = await truthOf(admin, 'big')

  log('snapshot: the floor (COPY to a Node client)')
  const floor = await inReader({
    kind: 'copy',
    pgUrl: ctx.pgUrl,
    sql: `select ${COLUMNS} from big`,
  })
  if (floor.kind !== 'copy') throw new Error('reader answered a shape')
  const floorRowsPerSec = floor.rows / (floor.ms / 1000)

  log('snapshot: one official client, to up to date')
  // The engine stamps a snapshot's end with the wall clock.
  const started = Date.now()
  const {
    result: reads,
    mb,
    heapMb,
    externalMb,
  } = await rssGrowth(() => readShape(running, { table: 'big' }, 1, true))
  const read = reads[0]!
  check('the 1M-row shape', read, ctx.rows, truth)
  const snapshotsOfIt = running.database.snapshotsAfter(started).length
  if (snapshotsOfIt !== 1)
    failures.push(`the 1M-row shape took ${snapshotsOfIt} snapshots`)
  const rowsPerSec = read.rows / (read.ms / 1000)
  // The same shape again, from its log: what the client and the HTTP path cost alone.
  log('snapshot: a second client reads it from the log')
  const [again] = await readShape(running, { table: 'big' }, 1, true)
  if (again) check('the 1M-row shape read again', again, ctx.rows, truth)
  const rereadRowsPerSec = again ? again.rows / (again.ms / 1000) : 0

  // 1% of the rows, contiguous: by the indexed timestamptz, then by primary key.
  const from = Math.floor(ctx.rows * 0.37)
  const count = Math.floor(ctx.rows / 100)
  const at = (i: number) => new Date(Date.parse(START) + i * 1000).toISOString()
  log('snapshot: 1% by an indexed column, and by primary key')
  const [filtered] = await readShape(running, {
    table: 'big',
    where: 'at > $1 and at <= $2',
    params: [at(from), at(from + count)],
  })
  const [byKey] = await readShape(running, {
    table: 'big',
    where: 'id > $1 and id <= $2',
    params: [String(from), String(from + count)],
  })
  for (const [what, r] of [
    ['the indexed 1%', filtered],
    ['the 1% by key', byKey],
  ] as const)
    if (r?.rows !== count)
      failures.push(`${what}: got ${r?.rows} of ${count} rows`)

  log(`snapshot: ${CONCURRENT} clients asking for one new shape at once`)
  const shared = {
    table: 'big',
    where: 'at > $1 and at <= $2',
    params: [at(from + count), at(from + 2 * count)],
  }
  const askedAt = Date.now()
  const together = await readShape(running, shared, CONCURRENT)
  const snapshotQueries = running.database.snapshotsAfter(askedAt).length
  for (const r of together)
    if (r.rows !== count)
      failures.push(`a concurrent client got ${r.rows} of ${count} rows`)
  log(`snapshot: ${JOINING} clients joining it`)
  const joinedAt = Date.now()
  const joiners = await readShape(running, shared, JOINING)
  const joiningQueries = running.database.snapshotsAfter(joinedAt).length
  for (const r of joiners)
    if (r.rows !== count)
      failures.push(`a joining client got ${r.rows} of ${count} rows`)

  let large: SnapshotFigures['large'] = null
  if (ctx.largeRows) {
    log(`snapshot: seeding ${ctx.largeRows} rows`)
    await admin.query(tableSql('large', ctx.largeRows))
    await admin.query('vacuum analyze large')
    const largeTruth = await truthOf(admin, 'large')
    log(`snapshot: ${ctx.largeRows} rows to one client`)
    const grown = await rssGrowth(() => readShape(running, { table: 'large' }))
    const { result } = grown
    const r = result[0]!
    check('the large shape', r, ctx.largeRows, largeTruth)
    large = {
      rows: r.rows,
      rowsPerSec: round(r.rows / (r.ms / 1000)),
      rssGrowthMb: grown.mb,
      heapGrowthMb: grown.heapMb,
      externalGrowthMb: grown.externalMb,
    }
  }

  return {
    rows: read.rows,
    rowsPerSec: round(rowsPerSec),
    floorRowsPerSec: round(floorRowsPerSec),
    ratio: round(rowsPerSec / floorRowsPerSec, 3),
    rereadRowsPerSec: round(rereadRowsPerSec),
    firstRowsMs: read.firstRowsMs === null ? null : round(read.firstRowsMs, 1),
    rssGrowthMb: mb,
    heapGrowthMb: heapMb,
    externalGrowthMb: externalMb,
    large,
    concurrentClients: CONCURRENT,
    snapshotQueries,
    joining: { clients: JOINING, snapshotQueries: joiningQueries },
    filtered: {
      rows: count,
      ms: round(filtered?.ms ?? 0, 1),
      byKeyMs: round(byKey?.ms ?? 0, 1),
      ratio: round((filtered?.ms ?? 0) / (byKey?.ms ?? 1), 2),
    },
    failures,
  }
}

/** The figures against their targets, and the BENCH_JSON line. */
export function printSnapshots(figures: SnapshotFigures): void {
  const t = SNAPSHOT_TARGETS
  const line = (what: string, value: string, target: string, ok: boolean) =>
    console.log(
      `${what.padEnd(44)} ${value.padStart(14)}  ${target.padEnd(14)} ${ok ? 'ok' : 'MISS'}`,
    )
  console.log(`\n${'snapshot'.padEnd(44)} ${'figure'.padStart(14)}  target`)
  line(
    `${figures.rows} rows to one official client`,
    `${figures.rowsPerSec} rows/s`,
    '',
    true,
  )
  line('COPY floor', `${figures.floorRowsPerSec} rows/s`, '', true)
  line(
    'read again, from the log',
    `${figures.rereadRowsPerSec} rows/s`,
    '',
    true,
  )
  line(
    'ratio',
    String(figures.ratio),
    `>= ${t.ratio}`,
    figures.ratio >= t.ratio,
  )
  line(
    'first rows at the client',
    `${figures.firstRowsMs} ms`,
    `<= ${t.firstRowsMs} ms`,
    figures.firstRowsMs !== null && figures.firstRowsMs <= t.firstRowsMs,
  )
  line(
    `engine RSS growth (heap ${figures.heapGrowthMb}, outside ${figures.externalGrowthMb})`,
    `${figures.rssGrowthMb} MB`,
    `<= ${t.rssGrowthMb} MB`,
    figures.rssGrowthMb <= t.rssGrowthMb,
  )
  if (figures.large)
    line(
      `engine RSS growth, ${figures.large.rows} rows`,
      `${figures.large.rssGrowthMb} MB`,
      `<= ${t.rssGrowthMb} MB`,
      figures.large.rssGrowthMb <= t.rssGrowthMb,
    )
  line(
    `${figures.concurrentClients} clients at once: snapshot queries`,
    String(figures.snapshotQueries),
    '1',
    figures.snapshotQueries === 1,
  )
  line(
    `${figures.joining.clients} clients joining: snapshot queries`,
    String(figures.joining.snapshotQueries),
    '0',
    figures.joining.snapshotQueries === 0,
  )
  line(
    `1% by index vs by key (${figures.filtered.ms} / ${figures.filtered.byKeyMs} ms)`,
    `${figures.filtered.ratio}x`,
    `<= ${t.filteredRatio}x`,
    figures.filtered.ratio <= t.filteredRatio,
  )
  for (const failure of figures.failures) console.log(`FAILED: ${failure}`)
  console.log(`BENCH_JSON ${JSON.stringify({ snapshot: figures })}`)
}
