// Refuses clauses too large or too deeply nested before anything recursive walks them: the
// walk here keeps its own stack, so it cannot overflow however deep the tree is.
import { WhereError } from './errors.ts'
import { MAX_LIST_ITEMS, MAX_WHERE_DEPTH, MAX_WHERE_NODES } from './limits.ts'

/** libpg-query nodes are `{ Kind: {...} }` with a capitalised kind. */
function nodeBody(value: object): Record<string, unknown> | undefined {
  const keys = Object.keys(value)
  if (keys.length !== 1 || !/^[A-Z]/.test(keys[0] as string)) return undefined
  return (value as Record<string, unknown>)[keys[0] as string] as Record<
    string,
    unknown
  >
}

function locationOf(body: Record<string, unknown> | undefined) {
  const at = body?.location
  return typeof at === 'number' && at >= 0 ? at : undefined
}

/**
 * Throws a WhereError when the parsed clause nests deeper than MAX_WHERE_DEPTH expressions,
 * has more than MAX_WHERE_NODES of them, or a list of more than MAX_LIST_ITEMS (checked as the
 * list is reached, before its items are walked). `offset` turns parser locations into clause
 * ones.
 */
export function checkSize(root: unknown, offset: number): void {
  type Entry = { value: unknown; depth: number; location?: number }
  const stack: Entry[] = [{ value: root, depth: 0 }]
  let nodes = 0
  while (stack.length > 0) {
    const { value, depth, location: outer } = stack.pop() as Entry
    if (value === null || typeof value !== 'object') continue
    if (Array.isArray(value)) {
      if (value.length > MAX_LIST_ITEMS)
        throw new WhereError(
          `where clause has a list of more than ${MAX_LIST_ITEMS} items (an IN list, ARRAY[...], a call's arguments, or terms joined by AND/OR); pass many values as one array param, as in id = ANY($1)`,
          outer,
        )
      for (const item of value)
        stack.push({ value: item, depth, location: outer })
      continue
    }
    const body = nodeBody(value)
    const inner = body ? depth + 1 : depth
    const at = locationOf(body)
    const location = at === undefined ? outer : Math.max(at - offset, 0)
    if (body) {
      if (inner > MAX_WHERE_DEPTH)
        throw new WhereError(
          `where clause is nested too deeply (more than ${MAX_WHERE_DEPTH} levels)`,
          location,
        )
      if (++nodes > MAX_WHERE_NODES)
        throw new WhereError(
          `where clause is too large (more than ${MAX_WHERE_NODES} expressions)`,
          location,
        )
    }
    for (const child of Object.values(body ?? value))
      stack.push({ value: child, depth: inner, location })
  }
}
