// WAL positions (LSNs): Postgres writes them as `X/Y` (two hex halves), the shape protocol as a
// decimal string; inside the engine they are bigints so they compare and sort exactly.

/** A WAL position as a 64-bit number; printed as decimal in the protocol, X/Y to Postgres. */
export type Lsn = bigint

const MAX_LSN = (1n << 64n) - 1n
const TEXT_FORM = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/
const DECIMAL_FORM = /^(0|[1-9][0-9]{0,19})$/

/** `16/B374D848` (zero-padded or not, any case) -> bigint. */
export function parseLsn(text: string): Lsn {
  const match = TEXT_FORM.exec(text)
  if (!match?.[1] || !match[2]) throw new Error(`invalid LSN "${text}"`)
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`)
}

/** bigint -> `16/B374D848`, the low half zero-padded to 8 digits as Postgres 18 prints it. */
export function formatLsn(lsn: Lsn): string {
  assertInRange(lsn)
  const high = (lsn >> 32n).toString(16).toUpperCase()
  const low = (lsn & 0xffffffffn).toString(16).toUpperCase().padStart(8, '0')
  return `${high}/${low}`
}

/** The shape protocol's form: an unsigned decimal string (offsets, `global_last_seen_lsn`). */
export function lsnToDecimal(lsn: Lsn): string {
  assertInRange(lsn)
  return lsn.toString(10)
}

export function lsnFromDecimal(text: string): Lsn {
  if (!DECIMAL_FORM.test(text)) throw new Error(`invalid decimal LSN "${text}"`)
  const lsn = BigInt(text)
  assertInRange(lsn)
  return lsn
}

export function maxLsn(a: Lsn, b: Lsn): Lsn {
  return a > b ? a : b
}

function assertInRange(lsn: Lsn): void {
  if (lsn < 0n || lsn > MAX_LSN) throw new Error(`LSN out of range: ${lsn}`)
}

/** Page headers on 64-bit builds: the first page of a segment has the long one. */
const SHORT_PAGE_HEADER = 24n
const LONG_PAGE_HEADER = 40n

/**
 * Where replication will say the WAL ends, given `pg_current_wal_insert_lsn()`. The insert
 * position of a full page is past the next page's header, but a record that ended at the page's
 * end ends there, and that is all a walsender reports until another record is written: on an
 * idle server, a wait for the insert position lasts until then (a move-in would wait its full
 * 30 s and its shape start over). No record ends inside a header, so the two are the same.
 */
export function walEndOf(
  insert: Lsn,
  blockSize: bigint,
  segmentSize: bigint,
): Lsn {
  if (insert % segmentSize === LONG_PAGE_HEADER)
    return insert - LONG_PAGE_HEADER
  if (insert % blockSize === SHORT_PAGE_HEADER)
    return insert - SHORT_PAGE_HEADER
  return insert
}
