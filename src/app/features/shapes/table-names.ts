// How the shape explorer names a table: its label in the sidebar (no schema when every
// table is in `public`), the sidebar's prefix filter, the `table` search param a URL reopens it
// by, and the quoted `"schema"."name"` that /v1/shape takes.

/** A schema entry, as GET /api/v1/sources/{id}/schema lists it. */
export type TableRef = { schema: string; name: string }

export const everyTableIsPublic = (tables: readonly TableRef[]) =>
  tables.every((table) => table.schema === 'public')

export const tableLabel = (table: TableRef, hideSchema: boolean) =>
  hideSchema ? table.name : `${table.schema}.${table.name}`

/** Prefix match on `name` or `schema.name`, ignoring case (people type `users` for `Users`). */
export function filterTables(
  tables: readonly TableRef[],
  filter: string,
): TableRef[] {
  const prefix = filter.trim().toLowerCase()
  if (!prefix) return [...tables]
  return tables.filter(
    (table) =>
      table.name.toLowerCase().startsWith(prefix) ||
      `${table.schema}.${table.name}`.toLowerCase().startsWith(prefix),
  )
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`

/** The `table` parameter of /v1/shape: both names quoted, so any name reads as itself. */
export const quotedTable = (table: TableRef) =>
  `${quoteIdent(table.schema)}.${quoteIdent(table.name)}`

// A name is written bare in the search param unless it could be misread: empty, or holding
// the dot that separates the names or the quote that starts a quoted one.
const needsQuotes = (name: string) => name === '' || /[."]/.test(name)
const paramPart = (name: string) =>
  needsQuotes(name) ? quoteIdent(name) : name

/** The `table` search param: `schema.name`, readable in the address bar for most tables. */
export const tableParam = (table: TableRef) =>
  `${paramPart(table.schema)}.${paramPart(table.name)}`

/** One name from `text` at `start`: quoted (with `""` for a quote) or bare up to a dot. */
function readPart(
  text: string,
  start: number,
): { name: string; end: number } | null {
  if (text[start] !== '"') {
    const dot = text.indexOf('.', start)
    const end = dot === -1 ? text.length : dot
    const name = text.slice(start, end)
    return name && !name.includes('"') ? { name, end } : null
  }
  let name = ''
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] !== '"') name += text[i]
    else if (text[i + 1] === '"') name += text[++i]
    else return { name, end: i + 1 }
  }
  return null
}

/** The table a `table` search param names (a bare name is in `public`); null if malformed. */
export function parseTableParam(text: string): TableRef | null {
  const first = readPart(text, 0)
  if (!first) return null
  if (first.end === text.length) return { schema: 'public', name: first.name }
  if (text[first.end] !== '.') return null
  const second = readPart(text, first.end + 1)
  if (!second || second.end !== text.length) return null
  return { schema: first.name, name: second.name }
}
