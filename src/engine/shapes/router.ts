// Finds the shapes a replicated row may belong to without evaluating every shape: a shape
// whose clause requires `column = constant` is filed under that constant; only the others
// are checked for every row of their table.
import type { Row } from '../replication/types.ts'
import type { Equality } from './where/types.ts'

type TableRoutes<S> = {
  unindexed: Set<S>
  byColumn: Map<string, Map<string, Set<S>>>
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
      let shapes = values.get(equality.value)
      if (!shapes) values.set(equality.value, (shapes = new Set()))
      shapes.add(shape)
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
      const values = routes.byColumn.get(placed.equality.column)
      const shapes = values?.get(placed.equality.value)
      shapes?.delete(shape)
      if (shapes?.size === 0) values?.delete(placed.equality.value)
      if (values?.size === 0) routes.byColumn.delete(placed.equality.column)
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
        for (const shape of values.get(value) ?? []) found.add(shape)
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
