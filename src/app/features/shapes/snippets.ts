// "Use this shape": the code that syncs exactly the shape on screen into an app, as curl, the
// official client's ShapeStream and a TanStack DB collection. Pure text, so the page shows it
// with the secret masked and copies it whole from the same function.
import type { Snippet } from '../../components/snippet-tabs.tsx'

export type SnippetShape = {
  /** The absolute URL of /v1/shape. */
  url: string
  /** Its query parameters (source_id, source_secret, table, where), in order. */
  params: Record<string, string>
  /** The table's `schema.name`, which names the collection. */
  tableName: string
  /** The row's columns that identify it: the primary key, or every column without one. */
  keyColumns: string[]
}

/** A single-quoted JavaScript string literal of any text. */
function jsString(text: string): string {
  const escaped = text
    .replace(/\\/g, '\\\\')
    .replace(/'/g, "\\'")
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
  return `'${escaped}'`
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

const propertyKey = (name: string) =>
  IDENTIFIER.test(name) ? name : jsString(name)

const rowField = (name: string) =>
  IDENTIFIER.test(name) ? `row.${name}` : `row[${jsString(name)}]`

function paramsObject(params: Record<string, string>, indent: string) {
  const lines = Object.entries(params).map(
    ([name, value]) => `${indent}  ${propertyKey(name)}: ${jsString(value)},`,
  )
  return ['{', ...lines, `${indent}}`].join('\n')
}

/** A shape's first request as curl; the setup page's sample too. */
export function shapeCurl(url: string, params: Record<string, string>): string {
  // URLSearchParams percent-encodes quotes, so the single-quoted shell word holds any clause.
  const query = new URLSearchParams({ ...params, offset: '-1' })
  return `curl -i '${url}?${query}'`
}

const curlSnippet = (shape: SnippetShape) => shapeCurl(shape.url, shape.params)

function shapeStreamSnippet(shape: SnippetShape): string {
  return `import { Shape, ShapeStream } from '@electric-sql/client'

const stream = new ShapeStream({
  url: ${jsString(shape.url)},
  params: ${paramsObject(shape.params, '  ')},
})
const shape = new Shape(stream)

// Called with every row once the shape is synced, then after each change.
shape.subscribe(({ rows }) => console.log(rows))
`
}

/** `items` -> itemsCollection, `order_lines` -> orderLinesCollection. */
function collectionName(tableName: string): string {
  const table = tableName.slice(tableName.lastIndexOf('.') + 1)
  const words = table.split(/[^A-Za-z0-9]+/).filter(Boolean)
  const camel = words
    .map((word, i) =>
      i === 0
        ? word.toLowerCase()
        : word.charAt(0).toUpperCase() + word.slice(1),
    )
    .join('')
  const name = /^[A-Za-z]/.test(camel) ? camel : `table${camel}`
  return `${name}Collection`
}

function getKey(columns: string[]): string {
  const [only, ...others] = columns
  if (only !== undefined && others.length === 0)
    return `(row) => String(${rowField(only)})`
  return `(row) => JSON.stringify([${columns.map(rowField).join(', ')}])`
}

function collectionSnippet(shape: SnippetShape): string {
  return `import { createCollection } from '@tanstack/db'
import { electricCollectionOptions } from '@tanstack/electric-db-collection'

export const ${collectionName(shape.tableName)} = createCollection(
  electricCollectionOptions({
    id: ${jsString(shape.tableName)},
    shapeOptions: {
      url: ${jsString(shape.url)},
      params: ${paramsObject(shape.params, '      ')},
    },
    getKey: ${getKey(shape.keyColumns)},
  }),
)
`
}

export function shapeSnippets(shape: SnippetShape): Snippet[] {
  return [
    { id: 'curl', label: 'curl', text: curlSnippet(shape) },
    {
      id: 'shape-stream',
      label: 'ShapeStream',
      text: shapeStreamSnippet(shape),
    },
    { id: 'tanstack-db', label: 'TanStack DB', text: collectionSnippet(shape) },
  ]
}
