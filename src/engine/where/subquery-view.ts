// What `lhs IN (SELECT cols FROM t WHERE …)` tests against: the subquery's current result, a
// multiset of tuples (several dependency rows may select the same value; it leaves the result
// only with the last of them). Values are Postgres text output, the form replication sends and
// the snapshot reads, compared as text: the analyser admits only types whose equal values
// print the same (sublink.ts), so text equality is the type's equality.

/** A tuple's key: its values joined by NUL, which Postgres text can never hold. */
const tupleKey = (values: readonly string[]): string =>
  values.length === 1 ? (values[0] as string) : values.join('\u0000')

export class ValueSet {
  /** Tuples without NULLs, by key: how many dependency rows select each. */
  private counts = new Map<string, number>()
  /** Tuples holding a NULL (compared element by element, as Postgres does), by JSON. */
  private partial = new Map<string, { tuple: (string | null)[]; n: number }>()

  get size(): number {
    return this.counts.size + this.partial.size
  }

  /** Whether any tuple holds a NULL: `x NOT IN` such a set is never TRUE. */
  get hasNulls(): boolean {
    return this.partial.size > 0
  }

  /** Empties it in place (what reads it keeps reading it). */
  clear(): void {
    this.counts.clear()
    this.partial.clear()
  }

  /** Adds one row's tuple; true when it entered the result (its first row). */
  add(tuple: readonly (string | null)[]): boolean {
    return this.change(tuple, 1)
  }

  /** Removes one row's tuple; true when it left the result (its last row). */
  remove(tuple: readonly (string | null)[]): boolean {
    return this.change(tuple, -1)
  }

  private change(tuple: readonly (string | null)[], by: 1 | -1): boolean {
    if (tuple.every((v) => v !== null)) {
      const key = tupleKey(tuple as string[])
      const n = (this.counts.get(key) ?? 0) + by
      if (n > 0) this.counts.set(key, n)
      else this.counts.delete(key)
      return by > 0 ? n === 1 : n === 0
    }
    const key = JSON.stringify(tuple)
    const n = (this.partial.get(key)?.n ?? 0) + by
    if (n > 0) this.partial.set(key, { tuple: [...tuple], n })
    else this.partial.delete(key)
    return by > 0 ? n === 1 : n === 0
  }

  /** Whether this very tuple is in the result (not `IN`: NULLs compare equal here). */
  contains(tuple: readonly (string | null)[]): boolean {
    return tuple.every((v) => v !== null)
      ? this.counts.has(tupleKey(tuple as string[]))
      : this.partial.has(JSON.stringify(tuple))
  }

  /** Every tuple in the result. */
  tuples(): (string | null)[][] {
    return [
      ...[...this.counts.keys()].map((k) => k.split('\u0000')),
      ...[...this.partial.values()].map((p) => p.tuple),
    ]
  }

  /** A copy, to evaluate against the result as it was before a move. */
  clone(): ValueSet {
    const copy = new ValueSet()
    copy.counts = new Map(this.counts)
    copy.partial = new Map(this.partial)
    return copy
  }

  /**
   * `lhs IN (result)` in three-valued logic, as Postgres evaluates it: TRUE if some tuple
   * equals, else NULL if some comparison was NULL, else FALSE (an empty result is FALSE even
   * for a NULL lhs).
   */
  member(lhs: readonly (string | null)[]): boolean | null {
    if (this.size === 0) return false
    if (lhs.every((v) => v !== null)) {
      if (this.counts.has(tupleKey(lhs as string[]))) return true
      if (this.partial.size === 0) return false
      return this.scan(lhs, this.partial.values()) ? null : false
    }
    // A NULL in the lhs: no tuple can equal it; NULL unless every tuple differs somewhere.
    const tuples = this.tuples().map((tuple) => ({ tuple }))
    return this.scan(lhs, tuples) ? null : false
  }

  // Whether some tuple compares NULL (no element known to differ), given none is equal.
  private scan(
    lhs: readonly (string | null)[],
    tuples: Iterable<{ tuple: readonly (string | null)[] }>,
  ): boolean {
    for (const { tuple } of tuples)
      if (tuple.every((v, i) => v === null || lhs[i] === null || v === lhs[i]))
        return true
    return false
  }
}

/**
 * Where evaluation reads a subquery's result: swapped for the result before a move while the
 * transactions a move-in's query already saw are applied (shapes/subqueries/).
 */
export type ViewRef = { current: ValueSet }
