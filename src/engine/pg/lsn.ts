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
