// Writes the typed tree back as SQL for the snapshot query. We emit it ourselves rather than
// deparse the parser's AST: every literal and param carries its resolved type and every
// implicit coercion is an explicit cast, so Postgres has nothing left to resolve and runs
// exactly what the evaluator runs; and only validated constructs can reach the database.
import {
  elementOf,
  isEnum,
  isOpaque,
  isStringType,
  type PgType,
} from './pg-types.ts'
import type { Expr, SqlForm, Subquery } from './tree.ts'

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`
}

// E'' with doubled backslashes reads the same whatever standard_conforming_strings says.
export function quoteLiteral(text: string): string {
  const quoted = text.replace(/'/g, "''")
  return text.includes('\\')
    ? `E'${quoted.replace(/\\/g, '\\\\')}'`
    : `'${quoted}'`
}

function typeName(t: PgType): string {
  // Enum and opaque types are never the target of a cast we emit (see analyze/context).
  if (isEnum(t) || isOpaque(t)) throw new Error(`cannot name type ${t} in SQL`)
  return t
}

const collate = (sql: string, type: PgType, form?: SqlForm) =>
  form?.collateC && isStringType(elementOf(type)) ? `${sql} COLLATE "C"` : sql

function constant(e: Extract<Expr, { kind: 'const' }>): string {
  if (e.literal === null) return `NULL::${typeName(e.type)}`
  if (e.type === 'bool') return e.value ? 'true' : 'false'
  if (e.type === 'int4' && /^\d+$/.test(e.literal)) return e.literal
  return `${quoteLiteral(e.literal)}::${typeName(e.type)}`
}

/** How `$n` is written: offset by a number, or rendered by a function. */
type ParamStyle = number | ((index: number) => string)

/**
 * `params`: a number is added to every `$n`, for a clause whose params follow another's; a
 * function renders each param (renumbered for a query that uses only some of them).
 */
export function toSql(e: Expr, params: ParamStyle = 0): string {
  const toSqlAt = (x: Expr) => toSql(x, params)
  const list = (args: Expr[]) => args.map(toSqlAt).join(', ')
  switch (e.kind) {
    case 'const':
      return constant(e)
    case 'param': {
      const name =
        typeof params === 'number' ? `$${e.index + params}` : params(e.index)
      return `${name}::${typeName(e.type)}`
    }
    case 'column':
      return quoteIdentifier(e.name)
    case 'cast':
      return `(${toSqlAt(e.arg)})::${typeName(e.type)}`
    case 'call': {
      const [first, ...rest] = e.args.map((a, i) =>
        i === 0 ? collate(toSqlAt(a), a.type, e.sig.sql) : toSqlAt(a),
      )
      if (e.sig.sql.kind === 'fn')
        return `${e.sig.sql.text}(${e.sig.sql.variadic ? 'VARIADIC ' : ''}${[first, ...rest].join(', ')})`
      return rest.length
        ? `(${first} ${e.sig.sql.text} ${rest[0]})`
        : `(${e.sig.sql.text} ${first})`
    }
    case 'and':
    case 'or':
      return `(${e.args.map(toSqlAt).join(e.kind === 'and' ? ' AND ' : ' OR ')})`
    case 'not':
      return `(NOT ${toSqlAt(e.arg)})`
    case 'null-test':
      return `(${toSqlAt(e.arg)} IS ${e.negated ? 'NOT ' : ''}NULL)`
    case 'bool-test':
      return `(${toSqlAt(e.arg)} ${e.test.replace(/_/g, ' ')})`
    case 'distinct':
      return `(${toSqlAt(e.args[0])} IS ${e.negated ? 'NOT ' : ''}DISTINCT FROM ${toSqlAt(e.args[1])})`
    case 'quantified': {
      const left = collate(toSqlAt(e.args[0]), e.args[0].type, e.sig.sql)
      return `(${left} ${e.sig.sql.text} ${e.all ? 'ALL' : 'ANY'} (${toSqlAt(e.args[1])}))`
    }
    case 'in':
      return `(${toSqlAt(e.left)} ${e.negated ? 'NOT ' : ''}IN (${list(e.items)}))`
    case 'coalesce':
      return `COALESCE(${list(e.args)})`
    case 'min-max': {
      const args = e.args.map((a, i) =>
        i === 0 && isStringType(elementOf(e.type))
          ? `${toSqlAt(a)} COLLATE "C"`
          : toSqlAt(a),
      )
      return `${e.greatest ? 'GREATEST' : 'LEAST'}(${args.join(', ')})`
    }
    case 'array':
      return `ARRAY[${list(e.elements)}]`
    case 'subscript': {
      const at = (b?: Expr) => (b ? toSqlAt(b) : '')
      const subscripts = e.indices.map((i) =>
        e.slice ? `[${at(i.lower)}:${at(i.upper)}]` : `[${at(i.upper)}]`,
      )
      return `(${toSqlAt(e.arg)})${subscripts.join('')}`
    }
    case 'sublink':
      return `(${sublinkLhs(e.columns)} IN (${subquerySql(e.subquery, params)}))`
  }
}

const sublinkLhs = (columns: string[]) =>
  columns.length === 1
    ? quoteIdentifier(columns[0] as string)
    : `(${columns.map(quoteIdentifier).join(', ')})`

/** `SELECT cols FROM table [WHERE …]`, its params numbered as the clause's. */
function subquerySql(q: Subquery, params: ParamStyle = 0): string {
  const from = `${quoteIdentifier(q.table.schema)}.${quoteIdentifier(q.table.name)}`
  const where = q.where ? ` WHERE ${toSql(q.where, params)}` : ''
  return `SELECT ${q.columns.map(quoteIdentifier).join(', ')} FROM ${from}${where}`
}
