// Array subscripts as array_get_element and array_get_slice read them: an element is NULL
// unless there is one subscript per dimension, each inside its bounds; a slice clamps its
// bounds to the array's, fills missing dimensions with their whole range, starts at 1, and is
// empty when any range is.
import { charge } from '../budget.ts'
import type { Datum, PgArray } from './value.ts'

/** `a[i][j]...`. */
export function arrayElement(a: PgArray, indices: number[]): Datum {
  const { dims, lbounds } = a
  if (dims.length !== indices.length || dims.length === 0) return null
  let offset = 0
  for (let d = 0; d < dims.length; d++) {
    const i = (indices[d] as number) - (lbounds[d] as number)
    if (i < 0 || i >= (dims[d] as number)) return null
    offset = offset * (dims[d] as number) + i
  }
  return a.items[offset] ?? null
}

const EMPTY: PgArray = { dims: [], lbounds: [], items: [] }

/** `a[l:u]...`; an undefined bound is the array's own. */
export function arraySlice(
  a: PgArray,
  bounds: { lower?: number; upper?: number }[],
): PgArray {
  const { dims, lbounds } = a
  if (dims.length < bounds.length || dims.length === 0) return EMPTY
  const from: number[] = []
  const to: number[] = []
  for (let d = 0; d < dims.length; d++) {
    const lb = lbounds[d] as number
    const end = lb + (dims[d] as number) - 1
    const b = bounds[d]
    const lo = b?.lower === undefined || b.lower < lb ? lb : b.lower
    const hi = b?.upper === undefined || b.upper > end ? end : b.upper
    if (lo > hi) return EMPTY
    from.push(lo - lb)
    to.push(hi - lb)
  }
  const outDims = from.map((f, d) => (to[d] as number) - f + 1)
  const count = outDims.reduce((n, x) => n * x, 1)
  charge(count)
  const items: Datum[] = []
  // Walks the kept positions in row-major order, like an odometer.
  const at = [...from]
  for (let k = 0; k < count; k++) {
    let offset = 0
    for (let d = 0; d < dims.length; d++)
      offset = offset * (dims[d] as number) + (at[d] as number)
    items.push(a.items[offset] ?? null)
    for (let d = dims.length - 1; d >= 0; d--) {
      if ((at[d] as number) < (to[d] as number)) {
        at[d] = (at[d] as number) + 1
        break
      }
      at[d] = from[d] as number
    }
  }
  return { dims: outDims, lbounds: outDims.map(() => 1), items }
}
