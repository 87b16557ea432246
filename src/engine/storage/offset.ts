// Log offsets: `-1` before everything, `<tx>_<op>` after, `inf` above any op of a tx.
// The snapshot lives at tx 0; changes at their commit LSN.

export type Offset = { tx: bigint; op: number }

export const BEFORE_ALL: Offset = { tx: -1n, op: 0 }
export const SNAPSHOT_END: Offset = { tx: 0n, op: Infinity }

const FORMAT = /^(\d+)_(\d+|inf)$/

export function parseOffset(text: string): Offset | null {
  if (text === '-1') return BEFORE_ALL
  const m = FORMAT.exec(text)
  if (!m) return null
  const op = m[2] === 'inf' ? Infinity : Number(m[2])
  if (!Number.isSafeInteger(op) && op !== Infinity) return null
  return { tx: BigInt(m[1] ?? '0'), op }
}

export function formatOffset(offset: Offset): string {
  if (offset.tx < 0n) return '-1'
  return `${offset.tx}_${offset.op === Infinity ? 'inf' : offset.op}`
}

export function compareOffsets(a: Offset, b: Offset): number {
  if (a.tx !== b.tx) return a.tx < b.tx ? -1 : 1
  if (a.op === b.op) return 0
  return a.op < b.op ? -1 : 1
}
