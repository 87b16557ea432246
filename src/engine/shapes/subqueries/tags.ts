// What a row of a shape with subqueries carries, as Electric sends it: `tags`, one per
// disjunct of the clause's normal form, each a `/`-joined slot per position ("" outside the
// disjunct, "1" for a plain condition, a hash of the row's value for a subquery), and
// `active_conditions`, whether each position holds now. A move names a position and a hash:
// the client flips that position for every row tagged with it, and drops a row no disjunct
// keeps. The hash is md5 over a stack name, the shape's handle and the value, as Electric's.
import { createHash } from 'node:crypto'
import type { Row } from '../../replication/types.ts'
import type { Dnf } from '../../where/types.ts'

/** Electric's default stack id (ELECTRIC_DATABASE_ID), part of every hash. */
const STACK_ID = 'single_stack'

const namespaced = (v: string | null) => (v === null ? 'NULL' : `v:${v}`)

/** The hash naming a value (or row of values) of the lhs `columns` in `handle`'s tags. */
export function valueHash(
  handle: string,
  columns: readonly string[],
  values: readonly (string | null)[],
): string {
  const text =
    columns.length === 1
      ? namespaced(values[0] ?? null)
      : columns.map((c, i) => `${c}:${namespaced(values[i] ?? null)}`).join('')
  return createHash('md5')
    .update(STACK_ID + handle + text)
    .digest('hex')
}

export type RowTags = { tags: string[]; active: boolean[] }

const valuesOf = (row: Row, columns: readonly string[]) =>
  columns.map((c) => row[c] ?? null)

/** A row's tags and active conditions, against the dependencies' results now. */
export function rowTags(dnf: Dnf, handle: string, row: Row): RowTags {
  const slots = dnf.positions.map((p) =>
    p.sublink
      ? valueHash(handle, p.sublink.columns, valuesOf(row, p.sublink.columns))
      : '1',
  )
  const tags = dnf.disjuncts.map((positions) => {
    const inside = new Set(positions)
    return slots.map((slot, i) => (inside.has(i) ? slot : '')).join('/')
  })
  return { tags, active: dnf.positions.map((p) => p.holds(row)) }
}

/** The headers a tagged change adds, as JSON text to splice after its others. */
export function tagHeaders(tags: RowTags, removed?: string[]): string {
  return (
    `,"tags":${JSON.stringify(tags.tags)},"active_conditions":${JSON.stringify(tags.active)}` +
    (removed ? `,"removed_tags":${JSON.stringify(removed)}` : '')
  )
}
