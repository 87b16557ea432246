// Finds the shapes a replicated row may belong to without evaluating every shape: a shape
// whose clause requires `column = constant` is filed under that constant; only the others
// are checked for every row of their table.
import type { Row } from '../replication/types.ts'
import type { Equality } from '../where/types.ts'

/**
 * The shapes filed under one value. Most values (a team's id) have one shape, kept bare rather
 * than in a Set: at 10,000 shapes, 20,000 objects fewer for every collection to mark.
 * (S is never itself a Set.)
 */
type Filed<S> = S | Set<S>

type TableRoutes<S> = {
  unindexed: Set<S>
  byColumn: Map<string, Map<string, Filed<S>>>
}

export class ShapeRouter<S> {
  private tables = new Map<string, TableRoutes<S>>()
  private placement = new Map<S, { table: string; equality: Equality | null }>()

  add(shape: S, table: string, equalities: Equality[]): void {
    let routes = this.tables.get(table)
    if (!routes) {
      routes = { unindexed: new Set(), byColumn: new Map() }
      this.tables.set(table, routes)
    }
    // Any one required equality is enough to find the shape; the clause is still evaluated.
    const equality = equalities[0] ?? null
    if (equality) {
      let values = routes.byColumn.get(equality.column)
      if (!values) routes.byColumn.set(equality.column, (values = new Map()))
      const filed = values.get(equality.value)
      if (filed === undefined) values.set(equality.value, shape)
      else if (filed instanceof Set) filed.add(shape)
      else values.set(equality.value, new Set([filed, shape]))
    } else routes.unindexed.add(shape)
    this.placement.set(shape, { table, equality })
  }

  remove(shape: S): void {
    const placed = this.placement.get(shape)
    if (!placed) return
    this.placement.delete(shape)
    const routes = this.tables.get(placed.table)
    if (!routes) return
    if (!placed.equality) routes.unindexed.delete(shape)
    else {
      const { column, value } = placed.equality
      const values = routes.byColumn.get(column)
      const filed = values?.get(value)
      if (filed instanceof Set) {
        filed.delete(shape)
        if (filed.size === 0) values?.delete(value)
      } else if (filed === shape) values?.delete(value)
      if (values?.size === 0) routes.byColumn.delete(column)
    }
    if (routes.unindexed.size === 0 && routes.byColumn.size === 0)
      this.tables.delete(placed.table)
  }

  /** Every shape of the table that could match any of the rows (old and new of an update). */
  candidates(table: string, rows: Array<Row | null>): Set<S> {
    const routes = this.tables.get(table)
    const found = new Set<S>()
    if (!routes) return found
    for (const shape of routes.unindexed) found.add(shape)
    for (const [column, values] of routes.byColumn)
      for (const row of rows) {
        const value = row?.[column]
        if (value == null) continue
        const filed = values.get(value)
        if (filed instanceof Set) for (const shape of filed) found.add(shape)
        else if (filed !== undefined) found.add(filed)
      }
    return found
  }

  shapesOf(table: string): S[] {
    return [...this.placement]
      .filter(([, p]) => p.table === table)
      .map(([s]) => s)
  }

  hasTable(table: string): boolean {
    return this.tables.has(table)
  }
}
