// `lhs IN (SELECT cols FROM table [WHERE …])`, the one subquery form Electric accepts (with
// NOT IN as its negation), refused otherwise in Electric's words. The subquery's own where
// clause is analysed over its table, sharing the clause's params, and may nest further.
// Identical subqueries are one dependency, numbered by first appearance.
import type { Node as PgNode, SubLink } from 'libpg-query'
import { toSql } from '../compile-sql.ts'
import { MAX_SUBQUERIES } from '../limits.ts'
import { columnType, isEnum, readable, type PgType } from '../pg-types.ts'
import { ValueSet } from '../subquery-view.ts'
import type { Expr, Subquery } from '../tree.ts'
import type { DependencyDraft, SubqueryTable } from '../types.ts'
import { fail, type Context } from './context.ts'

// Types whose equal values print the same text, so a result kept as text answers `IN` as
// Postgres does (numeric keeps its scale, floats have -0, so they are not here).
const COMPARABLE_AS_TEXT = new Set([
  'int2',
  'int4',
  'int8',
  'text',
  'varchar',
  'name',
  'uuid',
  'bool',
  'date',
  'timestamp',
  'timestamptz',
])

const comparableAsText = (t: PgType) => COMPARABLE_AS_TEXT.has(t) || isEnum(t)

export const tableKey = (t: { schema: string; name: string }) =>
  JSON.stringify([t.schema, t.name])

/** The tables a clause's subqueries read, at any depth: loaded before it is analysed. */
export function subqueryTables(
  node: unknown,
  found: Array<{ schema: string; name: string }> = [],
): Array<{ schema: string; name: string }> {
  if (Array.isArray(node)) for (const item of node) subqueryTables(item, found)
  else if (node && typeof node === 'object')
    for (const [key, value] of Object.entries(node)) {
      if (key === 'RangeVar') {
        const r = value as { schemaname?: string; relname?: string }
        found.push({ schema: r.schemaname ?? 'public', name: r.relname ?? '' })
      } else subqueryTables(value, found)
    }
  return found
}

const subqueryScope = (ctx: Context) => {
  const scope = ctx.subqueries
  if (!scope) fail(ctx.subqueriesRefused ?? 'subqueries are not supported')
  return scope
}

export function analyzeSublink(link: SubLink, ctx: Context): Expr {
  const at = link.location
  const scope = subqueryScope(ctx)
  if (link.subLinkType !== 'ANY_SUBLINK' || (link.operName?.length ?? 0) > 0)
    fail('only `value IN (SELECT ...)` sublinks are supported right now', at)
  const columns = lhsColumns(link.testexpr, ctx, at)
  const select = link.subselect
  if (!select || !('SelectStmt' in select))
    fail('only `value IN (SELECT ...)` sublinks are supported right now', at)
  const stmt = select.SelectStmt
  const allowed = new Set([
    'targetList',
    'fromClause',
    'whereClause',
    'limitOption',
    'op',
  ])
  if (
    Object.keys(stmt).some((k) => !allowed.has(k)) ||
    stmt.op !== 'SETOP_NONE'
  )
    fail('SELECT statement must not contain any clauses', at)
  const from = stmt.fromClause ?? []
  const range = from.length === 1 ? from[0] : undefined
  if (!range || !('RangeVar' in range) || range.RangeVar.alias)
    fail('Expected a single table reference', at)
  const table = {
    schema: range.RangeVar.schemaname ?? 'public',
    name: range.RangeVar.relname ?? '',
  }
  const info = scope.tables.get(tableKey(table))
  if (!info)
    fail(`relation "${table.schema}"."${table.name}" does not exist`, at)
  const selected = (stmt.targetList ?? []).map((target) =>
    selectedColumn(target, info),
  )
  const lhsTypes = columns.map((c) => columnType(ctx.columns.get(c)!))
  const types = selected.map((c) => columnType(info.columns.get(c)!))
  if (
    types.length !== lhsTypes.length ||
    types.some((t, i) => t !== lhsTypes[i])
  ) {
    const shown = (ts: PgType[]) =>
      ts.length === 1 ? readable(ts[0]!) : `(${ts.map(readable).join(', ')})`
    fail(
      `left side of \`IN (SELECT ...)\` has type ${shown(lhsTypes)} but subquery returns ${shown(types)}[]`,
      at,
    )
  }
  const unsupported = types.find((t) => !comparableAsText(t))
  if (unsupported !== undefined)
    fail(
      `\`IN (SELECT ...)\` on type ${readable(unsupported)} is not supported`,
      at,
    )
  if (++scope.count.n > MAX_SUBQUERIES)
    fail(`too many subqueries (more than ${MAX_SUBQUERIES})`, at)
  const inner = innerWhere(stmt.whereClause, info, ctx)
  const subquery: Subquery = { table, columns: selected, where: inner.where }
  const key = JSON.stringify([
    table.schema,
    table.name,
    selected,
    inner.where ? toSql(inner.where) : null,
  ])
  let dep = scope.dependencies.findIndex((d) => d.key === key)
  if (dep < 0) {
    dep = scope.dependencies.length
    scope.dependencies.push({
      key,
      subquery,
      types,
      primaryKey: info.primaryKey,
      view: { current: new ValueSet() },
      dependencies: inner.dependencies,
      whereColumns: inner.columns,
    })
  }
  const draft = scope.dependencies[dep] as DependencyDraft
  for (const c of columns) ctx.columnsUsed.add(c)
  return {
    kind: 'sublink',
    type: 'bool',
    columns,
    dep,
    subquery: draft.subquery,
    view: draft.view,
  }
}

function columnName(node: PgNode | undefined): string | undefined {
  if (!node || !('ColumnRef' in node)) return undefined
  const fields = node.ColumnRef.fields ?? []
  const only = fields.length === 1 ? fields[0] : undefined
  return only && 'String' in only ? only.String.sval : undefined
}

function lhsColumns(
  test: PgNode | undefined,
  ctx: Context,
  at: number | undefined,
): string[] {
  const refs =
    test && 'RowExpr' in test ? (test.RowExpr.args ?? []) : test ? [test] : []
  const names = refs.map(columnName)
  if (names.length === 0 || names.some((n) => n === undefined))
    fail(
      'currently, left side of `IN (SELECT ...)` can only be a column reference or a list of column references',
      at,
    )
  for (const name of names as string[])
    if (!ctx.columns.has(name)) fail(`column "${name}" does not exist`, at)
  return names as string[]
}

function selectedColumn(target: PgNode, info: SubqueryTable): string {
  const res = 'ResTarget' in target ? target.ResTarget : undefined
  const name = res && !res.name ? columnName(res.val) : undefined
  const location = res?.location
  if (name === undefined) fail('Expected a plain column reference', location)
  if (!info.columns.has(name)) fail(`column "${name}" does not exist`, location)
  return name
}

/** The subquery's where, over its own table, with the clause's params and its own subqueries. */
function innerWhere(
  where: PgNode | undefined,
  info: SubqueryTable,
  ctx: Context,
): {
  where: Expr | null
  dependencies: DependencyDraft[]
  columns: Set<string>
} {
  const dependencies: DependencyDraft[] = []
  if (!where) return { where: null, dependencies, columns: new Set() }
  const inner: Context = {
    ...ctx,
    columns: info.columns,
    columnsUsed: new Set(),
    subqueries: { ...subqueryScope(ctx), dependencies },
  }
  return {
    where: ctx.toBool(ctx.analyze(where, inner), 'WHERE', inner),
    dependencies,
    columns: inner.columnsUsed,
  }
}
