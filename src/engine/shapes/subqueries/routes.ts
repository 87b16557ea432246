// How replicated changes find the shapes with subqueries they concern besides their own table's:
// a shape is filed under every table its subqueries read, by each subquery's own equalities
// (`user_id = $1` over a membership table: one change, the one shape it can move).
import type { Row } from '../../replication/types.ts'
import { ShapeRouter } from '../router.ts'
import { tableKey } from '../table-watch.ts'
import type { SubqueryMoves } from './moves.ts'

type Route<S> = { shape: S }

export class DependencyRoutes<S> {
  private router = new ShapeRouter<Route<S>>()
  private routes = new Map<S, Route<S>[]>()

  add(shape: S, subqueries: SubqueryMoves): void {
    const routes = subqueries.all.map((rows) => {
      const route = { shape }
      const { schema, name } = rows.dep.table
      this.router.add(
        route,
        tableKey(schema, name),
        rows.dep.where?.equalities ?? [],
      )
      return route
    })
    this.routes.set(shape, routes)
  }

  remove(shape: S): void {
    for (const route of this.routes.get(shape) ?? []) this.router.remove(route)
    this.routes.delete(shape)
  }

  /** Adds to `found` the shapes whose subqueries may hold any of the rows of `table`. */
  candidates(table: string, rows: Array<Row | null>, found: Set<S>): void {
    for (const route of this.router.candidates(table, rows))
      found.add(route.shape)
  }

  /** The shapes with a subquery reading `table`. */
  shapesOf(table: string): S[] {
    return this.router.shapesOf(table).map((route) => route.shape)
  }
}
