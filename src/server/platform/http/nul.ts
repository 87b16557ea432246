// Postgres text cannot hold U+0000 (22021; 22P05 inside JSON), so a NUL in any string a request
// carries, a key's name included, is refused where the request enters, naming where it was,
// before it can reach a query. http/errors.ts maps what still gets through.
import { z } from 'zod'

export const NUL_REFUSED = 'must not contain a NUL character'

type Path = (string | number)[]
type Node = { value: unknown; key: string | number; parent: Node | null }

const pathOf = (node: Node | null): Path =>
  node?.parent ? [...pathOf(node.parent), node.key] : []

/** Where the first NUL in `value` is, or null. */
function nulPath(value: unknown): Path | null {
  // A stack, not recursion: a body's nesting is bounded only by its size.
  const stack: Node[] = [{ value, key: '', parent: null }]
  for (let node = stack.pop(); node; node = stack.pop()) {
    const v = node.value
    if (typeof v === 'string') {
      if (v.includes('\0')) return pathOf(node)
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--)
        stack.push({ value: v[i], key: i, parent: node })
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v)
      for (const [key] of entries)
        if (key.includes('\0'))
          return [...pathOf(node), key.replaceAll('\0', '\\u0000')]
      for (const [key, item] of entries.reverse())
        stack.push({ value: item, key, parent: node })
    }
  }
  return null
}

/** `schema.safeParse(raw)`, where a NUL anywhere in `raw` is the one issue, at its path. */
export function safeParseRequest<T>(
  schema: z.ZodType<T, unknown>,
  raw: unknown,
): { success: true; data: T } | { success: false; error: z.ZodError } {
  const path = nulPath(raw)
  if (!path) return schema.safeParse(raw)
  const issue = {
    code: 'custom' as const,
    path,
    message: NUL_REFUSED,
    input: raw,
  }
  return { success: false, error: new z.ZodError([issue]) }
}
