// Which replicated transactions a snapshot already contains: the snapshot's `xmin:xmax:xip`
// (64-bit xids) against the 32-bit xid a transaction arrives with.

export type Visibility = { xmin: bigint; xmax: bigint; xip: bigint[] }

export function parseSnapshot(text: string): Visibility {
  const [xmin, xmax, xip] = text.split(':')
  return {
    xmin: BigInt(xmin ?? '0'),
    xmax: BigInt(xmax ?? '0'),
    xip: xip
      ? xip
          .split(',')
          .filter(Boolean)
          .map((x) => BigInt(x))
      : [],
  }
}

const EPOCH = 1n << 32n

// A 32-bit xid from replication, placed in the epoch that makes it closest below xmax.
function widen(v: Visibility, xid: number): bigint {
  const epoch = v.xmax / EPOCH
  let full = epoch * EPOCH + BigInt(xid)
  if (full > v.xmax + EPOCH / 2n) full -= EPOCH
  return full
}

/** True when the snapshot already shows the transaction's effects: skip it for that shape. */
export function isVisible(v: Visibility, xid: number): boolean {
  const full = widen(v, xid)
  if (full < v.xmin) return true
  if (full >= v.xmax) return false
  return !v.xip.includes(full)
}
