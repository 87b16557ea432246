// SQL text helpers for the few statements that cannot take bind parameters (identifiers,
// replication commands), and the query interface the setup functions accept.
import type { QueryResult, QueryResultRow } from 'pg'

/** A pg.Client, PoolClient or Pool: the setup functions run one statement at a time. */
export type Queryable = {
  query<R extends QueryResultRow>(
    text: string,
    values?: unknown[],
  ): Promise<QueryResult<R>>
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}

export function quoteLiteral(value: string): string {
  if (value.includes('\0')) throw new Error('SQL literal with a NUL byte')
  return `'${value.replaceAll("'", "''")}'`
}

export function qualifiedName(schema: string, table: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(table)}`
}

/** The SQLSTATE of a Postgres error, if it is one. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}
