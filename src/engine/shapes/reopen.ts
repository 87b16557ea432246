// A shape's where clause compiled for its table as it is now, and the shapes kept on disk
// reopened after a restart with it: the database (database.ts) registers what comes back.
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type pg from 'pg'
import type { LogStorage } from '../storage/shape-log.ts'
import type { ShapeDefinition, TableName } from './definition.ts'
import { Shape } from './shape.ts'
import { loadTableInfo, type TableInfo } from './table-info.ts'
import { compileWhere, type CompiledWhere } from '../where/index.ts'

/** `load`: reads a table a subquery names; without it, subqueries are refused. */
export async function whereFor(
  definition: ShapeDefinition,
  info: TableInfo,
  load?: (table: TableName) => Promise<TableInfo>,
): Promise<CompiledWhere | null> {
  if (!definition.where) return null
  return compileWhere(
    definition.where,
    definition.params,
    columnsOf(info),
    0,
    load && {
      load: async (table) => {
        const found = await load(table)
        return { columns: columnsOf(found), primaryKey: found.primaryKey }
      },
    },
  )
}

const columnsOf = (info: TableInfo) =>
  new Map(info.columns.map((c) => [c.name, c]))

export type Reopened = {
  shape: Shape
  where: CompiledWhere | null
  info: TableInfo
  /** The tables its subqueries read. */
  dependencies: TableInfo[]
}

/** The shape in `dir`, or null when it cannot go on (never completed, or its table changed). */
async function reopenShape(
  pool: pg.Pool,
  logs: LogStorage,
  dir: string,
): Promise<Reopened | null> {
  const meta = Shape.readMeta(dir)
  if (!meta) return null
  const info = await loadTableInfo(pool, meta.definition.table)
  const columns = info.columns.map((c) => c.name)
  // The table changed while the engine was down: those clients must start over.
  if (meta.columns.some((c) => !columns.includes(c))) return null
  const dependencies: TableInfo[] = []
  const where = await whereFor(meta.definition, info, async (table) => {
    const found = await loadTableInfo(pool, table)
    dependencies.push(found)
    return found
  })
  return {
    shape: Shape.reopen(logs, dir, meta, where),
    where,
    info,
    dependencies,
  }
}

/**
 * Every shape kept in `shapesDir`, reopened; the directory of one that cannot go on is
 * deleted (its clients start over with a new handle).
 */
export async function reopenShapes(
  pool: pg.Pool,
  logs: LogStorage,
  shapesDir: string,
): Promise<Reopened[]> {
  const reopened: Reopened[] = []
  for (const dir of readdirSync(shapesDir)) {
    const path = join(shapesDir, dir)
    const shape = await reopenShape(pool, logs, path).catch(() => null)
    if (shape) reopened.push(shape)
    else rmSync(path, { recursive: true, force: true })
  }
  return reopened
}

/** Deletes every shape kept in `shapesDir` (their slot is gone: none can go on). */
export function dropShapes(shapesDir: string): void {
  for (const dir of readdirSync(shapesDir))
    rmSync(join(shapesDir, dir), { recursive: true })
}
