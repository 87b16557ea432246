// Answers a subset snapshot request as Electric does: `{"metadata": {...}, "data": [...]}`
// with the snapshot's xids, WAL position and mark, rows tagged with the mark, and the
// `electric-snapshot` header; never a 304 and never kept by a shared cache. The rows stream
// from a cursor as the client reads them, within a time bound.
import type { ShapeDatabase } from '../database.ts'
import type { Row } from '../replication/types.ts'
import { subsetMessage } from '../shapes/changes.ts'
import { formatOffset, type Offset } from '../storage/offset.ts'
import type { Shape } from '../shapes/shape.ts'
import {
  openSubset,
  SubsetError,
  type Subset,
  type SubsetRows,
} from '../shapes/subset.ts'
import { TableNotFoundError } from '../shapes/table-info.ts'
import { corsHeaders, invalid, jsonResponse } from './responses.ts'

/** Each statement of a subset query (the fetches included). */
const STATEMENT_TIMEOUT_MS = 30_000
/** JSON read ahead of the client before the answer starts (readAhead). */
const READ_AHEAD_BYTES = 4 * 1024 * 1024
/**
 * A subset larger than the read-ahead holds its connection while the client reads the rest:
 * a client slower than this loses the answer, and the connection is freed.
 */
const ANSWER_TIMEOUT_MS = 60_000

export type SubsetOptions = {
  database: ShapeDatabase
  shape: Shape
  subset: Subset
  /** Where the client's stream stands: kept, so no change between it and now is skipped. */
  offset: Offset | 'now'
  perUser?: boolean
  statementTimeoutMs?: number
  cors?: boolean
}

function failure(error: unknown): Response {
  if (error instanceof SubsetError)
    return invalid({ subset: { [error.field]: [error.message] } })
  if (error instanceof TableNotFoundError)
    return invalid({ table: [error.message] })
  const code = (error as { code?: unknown }).code
  if (code === '57014')
    return jsonResponse(
      503,
      { message: 'The subset query took too long' },
      { 'retry-after': '5' },
    )
  // Connection failures (a Node code, not a SQLSTATE) read alike, as for shape requests.
  if (typeof code === 'string' && !/^[0-9A-Z]{5}$/.test(code))
    return jsonResponse(
      503,
      { message: 'The database is unreachable' },
      { 'retry-after': '5' },
    )
  throw error
}

/**
 * The rows read ahead of the client, up to READ_AHEAD_BYTES of JSON: a subset that fits (most
 * do) ends its transaction at once and frees the connection, however slowly the client reads.
 * `exhausted` says the cursor is done (and closed).
 */
async function readAhead(rows: SubsetRows, encode: (batch: Row[]) => string) {
  const parts: string[] = []
  let bytes = 0
  while (bytes < READ_AHEAD_BYTES) {
    const batch = await rows.next()
    if (batch.length === 0) {
      await rows.close()
      return { parts, exhausted: true }
    }
    const text = encode(batch)
    parts.push(text)
    bytes += text.length
  }
  return { parts, exhausted: false }
}

function body(
  rows: SubsetRows,
  encode: (batch: Row[]) => string,
  ahead: { parts: string[]; exhausted: boolean },
) {
  const encoder = new TextEncoder()
  let done = ahead.exhausted
  let timer: NodeJS.Timeout | undefined
  const finish = async (failed: boolean) => {
    if (done) return
    done = true
    clearTimeout(timer)
    await rows.close(failed)
  }
  const head = `{"metadata":${JSON.stringify(rows.metadata)},"data":[${ahead.parts.join(',')}`
  let first = ahead.parts.length === 0
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(head))
      if (done) {
        controller.enqueue(encoder.encode(']}'))
        controller.close()
        return
      }
      // Past the read-ahead the connection is held while the client reads: for so long only.
      timer = setTimeout(() => {
        controller.error(new Error('the subset answer took too long'))
        void finish(true)
      }, ANSWER_TIMEOUT_MS)
    },
    async pull(controller) {
      if (done) return
      try {
        const batch = await rows.next()
        if (done) return
        if (batch.length === 0) {
          await finish(false)
          controller.enqueue(encoder.encode(']}'))
          controller.close()
          return
        }
        controller.enqueue(
          encoder.encode(`${first ? '' : ','}${encode(batch)}`),
        )
        first = false
      } catch (error) {
        await finish(true)
        controller.error(error)
      }
    },
    async cancel() {
      await finish(true)
    },
  })
}

export async function serveSubset(options: SubsetOptions): Promise<Response> {
  const { shape, database } = options
  // Read before the query starts: every change after it reaches the client through the log,
  // and every one before it is already in the snapshot.
  const offset = options.offset === 'now' ? shape.lastOffset : options.offset
  let rows: SubsetRows
  let ahead: Awaited<ReturnType<typeof readAhead>>
  try {
    rows = await openSubset(
      database.pool,
      shape,
      options.subset,
      options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS,
    )
  } catch (error) {
    return failure(error)
  }
  const mark = rows.metadata.snapshot_mark
  const encode = (batch: Row[]) =>
    batch.map((row) => subsetMessage(shape.view, row, mark)).join(',')
  try {
    // Before the headers: most mistakes Postgres finds are still a 400.
    ahead = await readAhead(rows, encode)
  } catch (error) {
    await rows.close(true)
    return failure(error)
  }
  // A request, its rows streamed as Postgres gives them: their bytes are not counted.
  shape.markRead(0)
  return new Response(body(rows, encode, ahead), {
    status: 200,
    headers: {
      'content-type': 'application/json',
      ...corsHeaders(options.cors),
      // A moment's rows under a random mark: no cache may answer another request with them.
      'cache-control': options.perUser ? 'private, no-store' : 'no-cache',
      'electric-snapshot': 'true',
      'electric-handle': shape.handle,
      'electric-schema': shape.schema,
      'electric-offset': formatOffset(offset),
    },
  })
}
