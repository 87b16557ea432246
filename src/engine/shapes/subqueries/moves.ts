// The subqueries of one shape, followed transaction by transaction as Electric follows them.
// Each subquery's rows are kept (dependency.ts: `truth`, the result as the database has it);
// what the shape's clients were told is the `applied` result, which the where clause reads.
// A transaction first applies its changes to the subqueries' tables; each tuple whose
// membership then differs from the applied result is a move:
//
// - out (a value left an IN, or entered a NOT IN): one `move-out` event naming the value's
//   hash at each of its positions, before the transaction's own rows; clients drop the rows
//   no disjunct keeps. The applied result changes at once.
// - in: the transaction's own rows are evaluated against the result before the move, then a
//   query (move-in-query.ts) reads the rows the move brings, at a snapshot of its own, and the
//   shape waits for it (shape.ts). Transactions that snapshot already saw are applied against
//   the result before the move, then come the `move-in` event, the rows and a `snapshot-end`,
//   then the rest against the result after it. Rows already in the shape are not sent again.
//
// Subqueries nested inside a subquery are followed too; when one's result changes, which rows of
// the subquery above it now qualify is not known from the change alone: every subquery's rows
// are read again, at a snapshot of their own, and the results compared (mover.ts).
import type { Change, Transaction } from '../../replication/types.ts'
import { ValueSet } from '../../where/subquery-view.ts'
import type {
  CompiledDependency,
  CompiledSubqueries,
} from '../../where/types.ts'
import type { AppliedEntry, ResultEntry } from './applied-log.ts'
import { DependencyRows } from './dependency.ts'
import { valueHash } from './tags.ts'

type Tuple = (string | null)[]

/** An event for the log, and the change to the applied results it stands for. */
export type MoveEvent = { json: string; entries: ResultEntry[] }

/** A move-in waiting for its query: the results before and after, the dependencies moved. */
export type MoveIn = {
  before: ValueSet[]
  after: ValueSet[]
  moved: Set<number>
  /** The `move-in` event (patterns and the moving transactions' xids). */
  event: MoveEvent
}

/** What a transaction does to the shape before its own rows are evaluated. */
export type TransactionStep =
  | { kind: 'rotate' }
  /** A subquery's own subquery moved: its rows are read again (mover.ts). */
  | { kind: 'reload' }
  | { kind: 'apply'; events: MoveEvent[]; moveIn: MoveIn | null }

type Pattern = { pos: number; value: string }

/** Where the shape is filed by its index column's values (shapes/router.ts). */
export type Filing = {
  file(value: string): void
  unfile(value: string): void
}

export class SubqueryMoves {
  /** The clause's own subqueries, by dependency index. */
  readonly rows: DependencyRows[]
  /**
   * Set when the shape is found by its index column (plan.index): it is filed under every
   * value of that result the clients were told of, and those a move-in brings meanwhile.
   */
  filing: Filing | null = null
  /** Subqueries of subqueries, at any depth: followed, never moved. */
  readonly nested: DependencyRows[] = []

  constructor(
    readonly plan: CompiledSubqueries,
    readonly handle: string,
  ) {
    this.rows = plan.dependencies.map((dep) => new DependencyRows(dep))
    // The clause reads the applied results; a subquery's own where reads its subqueries' truth.
    for (const dep of plan.dependencies) {
      dep.view.current = new ValueSet()
      this.follow(dep)
    }
    this.all = [...this.nested].reverse().concat(this.rows)
    this.tableNames = new Set(
      this.all.map((r) => `${r.dep.table.schema}.${r.dep.table.name}`),
    )
  }

  private follow(dep: CompiledDependency): void {
    for (const inner of dep.where?.subqueries?.dependencies ?? []) {
      const rows = new DependencyRows(inner)
      inner.view.current = rows.truth
      this.nested.push(rows)
      this.follow(inner)
    }
  }

  /** Every subquery whose rows the snapshot reads, innermost first. */
  readonly all: DependencyRows[]

  /** The tables the shape follows besides its own. */
  tables(): Array<{ schema: string; name: string }> {
    return this.all.map((r) => r.dep.table)
  }

  /** The snapshot read every subquery's rows: its clients are told exactly those results. */
  loaded(): void {
    for (const rows of this.rows) rows.dep.view.current = rows.truth.clone()
    for (const rows of this.all) rows.take()
    this.fileAll()
  }

  /** Files the shape under every value of its index result (after a snapshot, a restore). */
  fileAll(): void {
    const index = this.plan.index
    const view = index && this.rows[index.dep]?.dep.view.current
    if (!view || !this.filing) return
    for (const [value] of view.tuples())
      if (value !== null && value !== undefined) this.filing.file(value)
  }

  // The index result gained or lost tuples: refiled (values leave only once out of it).
  private refile(dep: number, tuples: Tuple[], added: boolean): void {
    if (!this.filing || this.plan.index?.dep !== dep) return
    for (const [value] of tuples)
      if (value !== null && value !== undefined)
        if (added) this.filing.file(value)
        else this.filing.unfile(value)
  }

  private readonly tableNames: Set<string>

  private follows(schema: string, name: string): boolean {
    return this.tableNames.has(`${schema}.${name}`)
  }

  /** Whether the change is of a table only a subquery reads (not the shape's own rows). */
  isDependencyOnly(change: Change, root: { schema: string; name: string }) {
    if (change.kind === 'truncate') return false
    const { schema, name } = change.relation
    if (schema === root.schema && name === root.name) return false
    return this.follows(schema, name)
  }

  /** Applies a transaction's changes to the subqueries' rows, and says what moves. */
  transaction(
    tx: Transaction,
    changes: Array<{ change: Change }>,
  ): TransactionStep {
    this.applyChanges(changes)
    return this.moves(tx)
  }

  /**
   * Applies changes to the subqueries' rows only: for a transaction a move-in's query already
   * saw, whose own moves wait until the move-in is in the log.
   */
  applyChanges(changes: Array<{ change: Change }>): void {
    for (const { change } of changes) {
      if (change.kind === 'truncate') continue
      // Most changes routed here are of the shape's own table.
      const { schema, name } = change.relation
      if (!this.follows(schema, name)) continue
      for (const rows of this.all)
        if (rows.follows(schema, name)) rows.apply(change)
    }
  }

  /** The moves since the last call: subquery results the clients were not told of yet. */
  moves(tx: Transaction | null): TransactionStep {
    if (this.nested.some((rows) => rows.take().length > 0))
      return { kind: 'reload' }
    const events: MoveEvent[] = []
    const ins: Array<{ dep: number; tuples: (string | null)[][] }> = []
    for (const [i, rows] of this.rows.entries()) {
      const applied = rows.dep.view.current
      const out: (string | null)[][] = []
      const into: (string | null)[][] = []
      for (const tuple of rows.take()) {
        const entered = rows.truth.contains(tuple)
        if (entered === applied.contains(tuple)) continue
        // NOT IN a result holding a NULL is never TRUE: every row would move, not one value's.
        if (rows.dep.negated && tuple.includes(null)) return { kind: 'rotate' }
        ;(entered !== rows.dep.negated ? into : out).push(tuple)
      }
      if (out.length > 0) {
        events.push(this.moveOut(i, out, applied, tx))
      }
      if (into.length > 0) ins.push({ dep: i, tuples: into })
    }
    return { kind: 'apply', events, moveIn: this.moveIn(ins, tx) }
  }

  // Out: the applied result changes now (NOT IN: the value joins it).
  private moveOut(
    dep: number,
    tuples: Tuple[],
    applied: ValueSet,
    tx: Transaction | null,
  ): MoveEvent {
    const negated = this.rows[dep]?.dep.negated ?? false
    const wasEmpty = applied.size === 0
    for (const tuple of tuples)
      if (negated) applied.add(tuple)
      else applied.remove(tuple)
    if (!negated) this.refile(dep, tuples, false)
    // `NULL NOT IN (empty)` is TRUE, `NULL NOT IN (anything)` is not: NULL rows leave too.
    const nulls = negated && wasEmpty && applied.size > 0
    return {
      json: eventJson('move-out', this.patterns(dep, tuples, nulls), tx),
      entries: [
        negated
          ? { dep, add: tuples, remove: [] }
          : { dep, add: [], remove: tuples },
      ],
    }
  }

  private moveIn(
    ins: Array<{ dep: number; tuples: (string | null)[][] }>,
    tx: Transaction | null,
  ): MoveIn | null {
    if (ins.length === 0) return null
    const before = this.rows.map((r) => r.dep.view.current)
    const after = before.map((v) => v.clone())
    const patterns: Pattern[] = []
    const entries: ResultEntry[] = []
    for (const { dep, tuples } of ins) {
      const negated = this.rows[dep]?.dep.negated ?? false
      const view = after[dep] as ValueSet
      for (const tuple of tuples)
        if (negated) view.remove(tuple)
        else view.add(tuple)
      // Filed now: the transactions that wait for the move-in include its rows' changes.
      if (!negated) this.refile(dep, tuples, true)
      const nulls = negated && view.size === 0
      patterns.push(...this.patterns(dep, tuples, nulls))
      entries.push(
        negated
          ? { dep, add: [], remove: tuples }
          : { dep, add: tuples, remove: [] },
      )
    }
    return {
      before,
      after,
      moved: new Set(ins.map((i) => i.dep)),
      event: { json: eventJson('move-in', patterns, tx), entries },
    }
  }

  /** The applied results in full, by dependency (the first entry of applied-log.ts). */
  appliedTuples(): Tuple[][] {
    return this.rows.map((rows) => rows.dep.view.current.tuples())
  }

  /** The applied results as applied-log.ts kept them (a restarted engine resuming). */
  restore(entries: AppliedEntry[]): void {
    const views = this.rows.map(() => new ValueSet())
    for (const entry of entries) {
      if ('floor' in entry || 'lsn' in entry) continue
      if ('full' in entry)
        entry.full.forEach((tuples, i) => {
          const view = new ValueSet()
          for (const tuple of tuples) view.add(tuple)
          views[i] = view
        })
      else {
        const view = views[entry.dep]
        for (const tuple of entry.add) view?.add(tuple)
        for (const tuple of entry.remove) view?.remove(tuple)
      }
    }
    this.rows.forEach((rows, i) => {
      rows.dep.view.current = views[i] as ValueSet
    })
    this.fileAll()
  }

  /** Every value of every result counts as touched: moves() then compares them all. */
  touchAll(): void {
    for (const rows of this.rows) rows.touchAll(rows.dep.view.current)
  }

  /** Forgets every subquery's rows, before a fresh snapshot reads them again. */
  reset(): void {
    for (const rows of this.all) rows.reset()
  }

  /** The move-in's results become the applied ones (its rows are in the log). */
  applyMoveIn(move: MoveIn): void {
    for (const [i, rows] of this.rows.entries())
      rows.dep.view.current = move.after[i] as ValueSet
  }

  // One pattern per position of the dependency and tuple; `nulls`: the NULL value's too.
  private patterns(
    dep: number,
    tuples: (string | null)[][],
    nulls: boolean,
  ): Pattern[] {
    const out: Pattern[] = []
    for (const [pos, p] of this.plan.dnf.positions.entries()) {
      if (p.sublink?.dep !== dep) continue
      const { columns } = p.sublink
      for (const tuple of tuples)
        out.push({ pos, value: valueHash(this.handle, columns, tuple) })
      if (nulls && columns.length === 1)
        out.push({ pos, value: valueHash(this.handle, columns, [null]) })
    }
    return out
  }
}

function eventJson(
  event: 'move-in' | 'move-out',
  patterns: Pattern[],
  tx: Transaction | null,
): string {
  const txids = tx ? [tx.xid] : []
  return JSON.stringify({ headers: { event, patterns, txids } })
}
