// The snapshot figures' client side, in a process of its own (forked by snapshot.ts for each
// measurement, so the engine's CPU and memory are its own): the floor, the table read with
// `COPY (SELECT …) TO STDOUT` by a Node client; and shapes read by the official Electric
// client until up to date, rows counted and checksummed. It answers one message and exits.
import { Shape, ShapeStream, isChangeMessage } from '@electric-sql/client'
import pg from 'pg'
import { to as copyTo } from 'pg-copy-streams'

export type ReaderTask =
  | { kind: 'copy'; pgUrl: string; sql: string }
  | {
      kind: 'shape'
      shapeUrl: string
      table: string
      where?: string
      params?: string[]
      /** Official clients reading the same shape at once. */
      clients: number
      /** Into a `Shape` (rows kept, as an app holds them), else counted off the stream. */
      keep: boolean
    }

/** What each client got: rows, their checksum (checksum.ts), when the first arrived. */
export type ClientRead = {
  rows: number
  checksum: Checksum
  ms: number
  firstRowsMs: number | null
}
export type ReaderResult =
  | { kind: 'copy'; rows: number; ms: number }
  | { kind: 'shape'; reads: ClientRead[] }

/** Sums that any copy of the rows agrees on, whatever their order: SQL computes the truth. */
export type Checksum = { ids: string; uids: string }

async function copy(pgUrl: string, sql: string) {
  const client = new pg.Client({ connectionString: pgUrl })
  await client.connect()
  try {
    const started = performance.now()
    const stream = client.query(copyTo(`COPY (${sql}) TO STDOUT`))
    let rows = 0
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      // A row per line: text format escapes a newline inside a value.
      for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1))
        rows++
    }
    return { kind: 'copy' as const, rows, ms: performance.now() - started }
  } finally {
    await client.end()
  }
}

type BigRow = { id: number; uid: string }

async function readOnce(
  task: Extract<ReaderTask, { kind: 'shape' }>,
): Promise<ClientRead> {
  const aborter = new AbortController()
  const started = performance.now()
  let firstRowsMs: number | null = null
  const stream = new ShapeStream<BigRow>({
    url: task.shapeUrl,
    params: {
      table: task.table,
      ...(task.where && { where: task.where }),
      ...(task.params && { params: task.params }),
    },
    signal: aborter.signal,
  })
  let ids = 0n
  let uids = 0n
  let rows = 0
  const done = new Promise<void>((resolve, reject) => {
    stream.subscribe(
      (messages) => {
        for (const message of messages) {
          if (!isChangeMessage(message)) {
            if (
              'control' in message.headers &&
              message.headers.control === 'up-to-date'
            )
              resolve()
            continue
          }
          firstRowsMs ??= performance.now() - started
          if (task.keep) continue
          rows++
          ids += BigInt(message.value.id)
          uids += BigInt(`0x${message.value.uid.slice(0, 8)}`)
        }
      },
      (error) => reject(error as Error),
    )
  })
  if (task.keep) {
    const shape = new Shape(stream)
    await Promise.all([done, shape.rows])
    for (const row of shape.currentRows as BigRow[]) {
      rows++
      ids += BigInt(row.id)
      uids += BigInt(`0x${row.uid.slice(0, 8)}`)
    }
  } else await done
  const ms = performance.now() - started
  aborter.abort()
  return {
    rows,
    checksum: { ids: String(ids), uids: String(uids) },
    ms,
    firstRowsMs,
  }
}

async function run(task: ReaderTask): Promise<ReaderResult> {
  if (task.kind === 'copy') return copy(task.pgUrl, task.sql)
  const reads = await Promise.all(
    Array.from({ length: task.clients }, () => readOnce(task)),
  )
  return { kind: 'shape', reads }
}

process.once('message', (task: ReaderTask) => {
  run(task).then(
    (result) => process.send?.({ result }, () => process.exit(0)),
    (error: unknown) =>
      process.send?.({ error: String(error) }, () => process.exit(1)),
  )
})
