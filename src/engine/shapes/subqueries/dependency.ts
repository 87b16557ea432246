// One subquery a shape follows: the rows of its table its where clause admits, by primary key,
// each with the tuple it selects, and the multiset of those tuples (the subquery's result as
// the database has it now: `truth`). Rows are kept rather than counted so that an update whose
// old row replication does not send (a table not yet REPLICA IDENTITY FULL) still leaves the
// value it had.
import type { Change, Row } from '../../replication/types.ts'
import { ValueSet } from '../../where/subquery-view.ts'
import type { CompiledDependency } from '../../where/types.ts'

const NOTHING: (string | null)[][] = []

const keyOf = (row: Row, primaryKey: readonly string[]) =>
  JSON.stringify(primaryKey.map((c) => row[c] ?? null))

export class DependencyRows {
  readonly truth = new ValueSet()
  private rows = new Map<string, (string | null)[]>()
  /** The result's tuples whose membership changed since the last take(), by JSON. */
  private touched = new Map<string, (string | null)[]>()

  constructor(readonly dep: CompiledDependency) {}

  /** The SQL reading its rows at a snapshot: primary key, selected columns, where. */
  query(): { sql: string; params: string[]; columns: string[] } {
    const { table, primaryKey, columns, where } = this.dep
    const read = [...new Set([...primaryKey, ...columns])]
    const quote = (n: string) => `"${n.replace(/"/g, '""')}"`
    const sql =
      `SELECT ${read.map(quote).join(', ')} FROM ${quote(table.schema)}.${quote(table.name)}` +
      (where ? ` WHERE ${where.sql}` : '')
    return { sql, params: where?.params ?? [], columns: read }
  }

  /** Forgets every row, before they are read again (a restarted engine resuming). */
  reset(): void {
    this.rows.clear()
    this.truth.clear()
    this.touched.clear()
  }

  /** A row the snapshot read (it matched the where clause then). */
  load(row: Row): void {
    const tuple = this.tupleOf(row)
    this.rows.set(keyOf(row, this.dep.primaryKey), tuple)
    this.truth.add(tuple)
  }

  /** Whether a change of `relation` concerns this subquery's table. */
  follows(schema: string, name: string): boolean {
    return this.dep.table.schema === schema && this.dep.table.name === name
  }

  apply(change: Change): void {
    if (change.kind === 'truncate') return
    const { primaryKey } = this.dep
    if (change.kind === 'delete' || change.kind === 'update') {
      const old =
        change.kind === 'delete'
          ? change.oldRow
          : (change.oldRow ?? change.newRow)
      const key = keyOf(old, primaryKey)
      const tuple = this.rows.get(key)
      if (tuple) {
        this.rows.delete(key)
        if (this.truth.remove(tuple)) this.touch(tuple)
      }
    }
    if (change.kind === 'insert' || change.kind === 'update') {
      const row = change.newRow
      if (this.admits(row)) {
        const tuple = this.tupleOf(row)
        this.rows.set(keyOf(row, primaryKey), tuple)
        if (this.truth.add(tuple)) this.touch(tuple)
      }
    }
  }

  /** The tuples whose membership changed since the last call, and clears them. */
  take(): (string | null)[][] {
    // Most transactions touch no subquery's table: no array for them.
    if (this.touched.size === 0) return NOTHING
    const out = [...this.touched.values()]
    this.touched.clear()
    return out
  }

  /** Marks every tuple of the result and of `other` as touched (take() answers them). */
  touchAll(other: ValueSet): void {
    for (const tuple of [...this.truth.tuples(), ...other.tuples()])
      this.touch(tuple)
  }

  private admits(row: Row): boolean {
    return this.dep.where ? this.dep.where.matches(row) : true
  }

  private tupleOf(row: Row): (string | null)[] {
    return this.dep.columns.map((c: string) => row[c] ?? null)
  }

  private touch(tuple: (string | null)[]): void {
    this.touched.set(JSON.stringify(tuple), tuple)
  }
}
