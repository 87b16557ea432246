// A shape's snapshot read with COPY: Postgres writes each row's insert message as JSON, and the
// engine frames those bytes as log lines and appends them, without a JavaScript object or string
// per row. Through a cursor, each row became an object of strings, then a message built and
// serialised from it: at 1M rows that was most of the engine's time and memory in the snapshot
// (bench:engine --only snapshot). The JSON is byte for byte the message insertMessage() writes
// (changes.ts), so a row reads the same whichever path wrote it; shapes with subqueries keep the
// cursor, as their tags are computed here (snapshot.ts).
import type pg from 'pg'
import { to as copyTo } from 'pg-copy-streams'
import { CopyBinaryRows } from '../pg/copy-binary.ts'
import { TimeSlice } from '../time-slice.ts'
import { quoteLiteral } from '../where/compile-sql.ts'
import type { CompiledWhere } from '../where/types.ts'
import type { ShapeView } from './changes.ts'
import { qualifiedName, quoteIdent, type TableName } from './definition.ts'

/**
 * Lines are appended in pieces of about one index step of the log (log-store.ts): the first
 * piece also fills a client's first answer (storage/chunks.ts) as soon as Postgres sent it.
 */
const PIECE_BYTES = 64 * 1024
/** `0_`, `<op>` (up to 2^53, 16 digits), two tabs and the `1`, and the newline. */
const LINE_EXTRA_BYTES = 24

/** A column's text output, as replication and the cursor's text results carry it, as JSON. */
function valueJson(column: string): string {
  const c = quoteIdent(column)
  // concat() writes its argument with the type's output function: `::text` is a cast, and some
  // casts differ from the output (a boolean casts to `true`, its output is `t`; an inet loses
  // or gains its mask; char(n) loses its padding).
  return `CASE WHEN ${c} IS NULL THEN 'null' ELSE to_json(concat(${c}))::text END`
}

/** A key part: the value quoted as rowKey() quotes it (changes.ts), `_` for a null. */
function keyPart(column: string): string {
  const c = quoteIdent(column)
  return `'/"' || CASE WHEN ${c} IS NULL THEN '_' ELSE replace(concat(${c}), '"', '""') END || '"'`
}

/**
 * The COPY statement whose rows are the shape's insert messages, one text field each: what
 * insertMessage() writes for a row without tags. A where clause's params are written in as
 * literals: COPY binds none.
 */
export function snapshotCopySql(
  view: ShapeView,
  table: TableName,
  where: CompiledWhere | null,
): string {
  const [schema, name] = view.relation
  // rowKey() quotes the relation's names as identifiers are quoted.
  const relation = quoteLiteral(`${quoteIdent(schema)}.${quoteIdent(name)}`)
  const key = `to_json(${[relation, ...view.primaryKey.map(keyPart)].join(' || ')})::text`
  const parts: string[] = [quoteLiteral('{"key":'), key]
  view.columns.forEach((column, i) => {
    const label = `${i === 0 ? ',"value":{' : ','}${JSON.stringify(column)}:`
    parts.push(quoteLiteral(label), valueJson(column))
  })
  const headers = JSON.stringify({
    operation: 'insert',
    relation: view.relation,
  })
  parts.push(
    quoteLiteral(
      `${view.columns.length === 0 ? ',"value":{' : ''}},"headers":${headers}}`,
    ),
  )
  const filter = where ? ` WHERE (${where.inlineSql})` : ''
  return `COPY (SELECT ${parts.join(' || ')} FROM ${qualifiedName(table)}${filter}) TO STDOUT (FORMAT binary)`
}

/**
 * Frames messages as snapshot log lines, `0_<op>\t1\t<json>\n`, in pieces of at most
 * PIECE_BYTES (a longer line makes a piece of its own), in one buffer reused for every piece:
 * the log copies what it is given, and a new buffer per piece left about 40 MB outside the
 * heap for the garbage collector to find (bench:engine --only snapshot).
 */
export class SnapshotLines {
  private piece: Buffer = Buffer.allocUnsafeSlow(PIECE_BYTES)
  private used = 0
  private rows = 0
  private op = 0

  constructor(
    private readonly onPiece: (lines: Buffer, rows: number) => void,
  ) {}

  /** The message at bytes start..end of `data`. */
  add = (data: Buffer, start: number, end: number): void => {
    const room = end - start + LINE_EXTRA_BYTES
    if (this.used + room > this.piece.length) {
      this.flush()
      if (room > this.piece.length) this.piece = Buffer.allocUnsafeSlow(room)
    }
    const p = this.piece
    let at = this.used
    p[at++] = 0x30 // 0
    p[at++] = 0x5f // _
    at += p.write(String(this.op++), at, 'latin1')
    p[at++] = 0x09
    p[at++] = 0x31 // 1: each row is its own transaction's last record
    p[at++] = 0x09
    at += data.copy(p, at, start, end)
    p[at++] = 0x0a
    this.used = at
    this.rows++
  }

  /** Hands on what is framed (the log copies it); the buffer is reused from the start. */
  flush(): void {
    if (this.rows === 0) return
    this.onPiece(this.piece.subarray(0, this.used), this.rows)
    // After one long line, back to the usual size.
    if (this.piece.length > PIECE_BYTES)
      this.piece = Buffer.allocUnsafeSlow(PIECE_BYTES)
    this.used = 0
    this.rows = 0
  }
}

/**
 * Runs the COPY on `client` (inside the snapshot's transaction) and hands on its rows as log
 * lines in pieces. `caughtUp` is awaited after each chunk: the socket is read no faster than
 * the log is written, so memory stays flat whatever the table's size.
 */
export async function copySnapshot(
  client: pg.PoolClient,
  sql: string,
  onPiece: (lines: Buffer, rows: number) => void,
  caughtUp: () => Promise<void>,
): Promise<void> {
  const rows = new CopyBinaryRows()
  const lines = new SnapshotLines(onPiece)
  const stream = client.query(copyTo(sql))
  // Postgres sends faster than the rows are framed: a poll of the socket can bring megabytes,
  // and without a pause the loop would hold the event loop for all of them (other requests,
  // and the clients waiting for this snapshot's first chunk, with it).
  const slice = new TimeSlice()
  let stopped: { error: unknown } | null = null
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    try {
      const before = rows.rows
      rows.push(chunk, lines.add)
      await caughtUp()
      if (slice.tick(rows.rows - before)) await slice.pause()
    } catch (error) {
      stopped = { error }
      break
    }
  }
  if (stopped) {
    // The engine stopped reading mid-COPY (its log closed, say): Postgres is still sending
    // rows, and the connection can run nothing else. It is closed (the server ends the
    // COPY and the transaction), and the pool drops it when it is released.
    await client.end().catch(() => {})
    throw stopped.error
  }
  if (!rows.complete) throw new Error('the COPY of the snapshot ended early')
  lines.flush()
}
