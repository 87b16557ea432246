// A shape's definition as a client asks for it, validated into one canonical form whose key
// identifies the shape (two requests with the same key share one log).

export type TableName = { schema: string; name: string }

export type ShapeDefinition = {
  table: TableName
  where: string | null
  /** Values of $1..$n, in order. */
  params: string[]
  /** Columns to send; null means every column. Always includes the primary key. */
  columns: string[] | null
  replica: 'default' | 'full'
  /**
   * `queryable_columns`: the only columns a subset may filter and order by, and those sent when
   * `columns` is not given (which must then lie within them). Absent: a subset may use the
   * columns the shape sends. Sorted, as Electric keeps it.
   */
  queryable?: string[]
  /**
   * `changes_only`: no initial rows; the log starts where the shape was created and clients
   * load the rows they want as subset snapshots. Absent means `full`.
   */
  log?: LogMode
}

type LogMode = 'full' | 'changes_only'

export class DefinitionError extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message)
  }
}

// Splits `a.b`, `"A"."b.c"` and `b` into identifiers; unquoted ones fold to lower case.
function splitIdentifiers(text: string, param: string): string[] {
  const parts: string[] = []
  let i = 0
  while (i < text.length) {
    if (text[i] === '"') {
      let value = ''
      i++
      while (i < text.length) {
        if (text[i] === '"' && text[i + 1] === '"') {
          value += '"'
          i += 2
        } else if (text[i] === '"') break
        else value += text[i++]
      }
      if (text[i] !== '"')
        throw new DefinitionError(param, 'Invalid identifier')
      parts.push(value)
      i++
    } else {
      let end = i
      while (end < text.length && text[end] !== '.' && text[end] !== ',') end++
      const raw = text.slice(i, end).trim()
      if (!/^[A-Za-z_][A-Za-z0-9_$]*$/.test(raw))
        throw new DefinitionError(param, `Invalid identifier "${raw}"`)
      parts.push(raw.toLowerCase())
      i = end
    }
    if (i < text.length) {
      if (text[i] !== '.') break
      i++
    }
  }
  if (i < text.length) throw new DefinitionError(param, 'Invalid identifier')
  return parts
}

export function parseTable(text: string): TableName {
  const parts = splitIdentifiers(text.trim(), 'table')
  if (parts.length === 1) return { schema: 'public', name: parts[0] ?? '' }
  if (parts.length === 2)
    return { schema: parts[0] ?? '', name: parts[1] ?? '' }
  throw new DefinitionError('table', 'Invalid table name')
}

/** A list of column names (`columns`, `queryable_columns`), its errors named `param`. */
export function parseColumns(text: string, param = 'columns'): string[] {
  const names: string[] = []
  for (const piece of splitOutsideQuotes(text)) {
    const parts = splitIdentifiers(piece.trim(), param)
    if (parts.length !== 1)
      throw new DefinitionError(param, 'Invalid column name')
    names.push(parts[0] ?? '')
  }
  if (names.length === 0) throw new DefinitionError(param, "can't be blank")
  return names
}

/** The columns a shape is asked to send: `columns`, else its queryable ones, else all (null). */
export const wantedColumns = (def: ShapeDefinition): string[] | null =>
  def.columns ?? def.queryable ?? null

function splitOutsideQuotes(text: string): string[] {
  const out: string[] = []
  let current = ''
  let quoted = false
  for (const ch of text) {
    if (ch === '"') quoted = !quoted
    if (ch === ',' && !quoted) {
      out.push(current)
      current = ''
    } else current += ch
  }
  out.push(current)
  return out
}

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`

export const qualifiedName = (t: TableName) =>
  `${quoteIdent(t.schema)}.${quoteIdent(t.name)}`

/** A stable identity for a definition: same shape, same key. */
export function definitionKey(def: ShapeDefinition): string {
  const key: unknown[] = [
    def.table.schema,
    def.table.name,
    def.where,
    def.params,
    def.columns ? [...def.columns].sort() : null,
    def.replica,
  ]
  // A changes-only shape is another shape (another handle) than the full one; full shapes keep
  // the key they always had.
  if (def.log === 'changes_only') key.push('changes_only')
  // Likewise a shape with queryable columns (another subset rule, maybe other columns sent).
  if (def.queryable) key.push({ queryable: def.queryable })
  return JSON.stringify(key)
}

/**
 * Whether two definitions are the same as written, field by field (columns in the same order):
 * a cheap check that never builds a key. Definitions it calls different may still share a key.
 */
export function sameDefinition(
  a: ShapeDefinition,
  b: ShapeDefinition,
): boolean {
  return (
    a.table.schema === b.table.schema &&
    a.table.name === b.table.name &&
    a.where === b.where &&
    a.replica === b.replica &&
    (a.log ?? 'full') === (b.log ?? 'full') &&
    sameList(a.params, b.params) &&
    (a.queryable === undefined || b.queryable === undefined
      ? a.queryable === b.queryable
      : sameList(a.queryable, b.queryable)) &&
    (a.columns === null || b.columns === null
      ? a.columns === b.columns
      : sameList(a.columns, b.columns))
  )
}

const sameList = (a: string[], b: string[]) =>
  a.length === b.length && a.every((value, i) => value === b[i])
