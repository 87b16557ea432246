// Finds the shapes a replicated row may belong to without evaluating every shape: a shape
// whose clause requires `column = constant` is filed under that constant, one that requires
// `column IN (SELECT …)` under each value of the subquery's result (refiled as it moves:
// fileValue, unfileValue); only the others are checked for every row of their table.
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
  private placement = new Map<
    S,
    {
      table: string
      equality: Equality | null
      /** Filed under a column's values that change (addByValues). */
      byValues?: { column: string; values: Set<string> }
    }
  >()

  private routesOf(table: string): TableRoutes<S> {
    let routes = this.tables.get(table)
    if (!routes) {
      routes = { unindexed: new Set(), byColumn: new Map() }
      this.tables.set(table, routes)
    }
    return routes
  }

  add(shape: S, table: string, equalities: Equality[]): void {
    const routes = this.routesOf(table)
    // Any one required equality is enough to find the shape; the clause is still evaluated.
    const equality = equalities[0] ?? null
    if (equality) this.file(routes, shape, equality.column, equality.value)
    else routes.unindexed.add(shape)
    this.placement.set(shape, { table, equality })
  }

  /**
   * A shape whose rows all have `column` among values that change (a subquery's result): filed
   * under none until fileValue() gives them.
   */
  addByValues(shape: S, table: string, column: string): void {
    this.placement.set(shape, {
      table,
      equality: null,
      byValues: { column, values: new Set() },
    })
  }

  fileValue(shape: S, value: string): void {
    const placed = this.placement.get(shape)
    if (!placed?.byValues || placed.byValues.values.has(value)) return
    placed.byValues.values.add(value)
    const routes = this.routesOf(placed.table)
    this.file(routes, shape, placed.byValues.column, value)
  }

  unfileValue(shape: S, value: string): void {
    const placed = this.placement.get(shape)
    const routes = placed && this.tables.get(placed.table)
    if (!placed?.byValues?.values.delete(value) || !routes) return
    this.unfile(routes, shape, placed.byValues.column, value)
    if (routes.unindexed.size === 0 && routes.byColumn.size === 0)
      this.tables.delete(placed.table)
  }

  private file(
    routes: TableRoutes<S>,
    shape: S,
    column: string,
    value: string,
  ) {
    let values = routes.byColumn.get(column)
    if (!values) routes.byColumn.set(column, (values = new Map()))
    const filed = values.get(value)
    if (filed === undefined) values.set(value, shape)
    else if (filed instanceof Set) filed.add(shape)
    else values.set(value, new Set([filed, shape]))
  }

  private unfile(
    routes: TableRoutes<S>,
    shape: S,
    column: string,
    value: string,
  ) {
    const values = routes.byColumn.get(column)
    const filed = values?.get(value)
    if (filed instanceof Set) {
      filed.delete(shape)
      if (filed.size === 0) values?.delete(value)
    } else if (filed === shape) values?.delete(value)
    if (values?.size === 0) routes.byColumn.delete(column)
  }

  remove(shape: S): void {
    const placed = this.placement.get(shape)
    if (!placed) return
    this.placement.delete(shape)
    const routes = this.tables.get(placed.table)
    if (!routes) return
    if (placed.equality) {
      const { column, value } = placed.equality
      this.unfile(routes, shape, column, value)
    } else if (placed.byValues)
      for (const value of placed.byValues.values)
        this.unfile(routes, shape, placed.byValues.column, value)
    else routes.unindexed.delete(shape)
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
