// Request bodies and query strings enter through zod: a failure (a NUL in any string too) is a
// 400 naming the field, never a 500.
import type { Context } from 'hono'
import type { z } from 'zod'
import { bodyTooLarge } from './body-limit.ts'
import { safeParseRequest } from './nul.ts'

type Parsed<T> =
  { success: true; data: T } | { success: false; response: Response }

export async function readJson<T>(
  c: Context,
  schema: z.ZodType<T>,
): Promise<Parsed<T>> {
  let raw: unknown
  try {
    raw = await c.req.json()
  } catch (error) {
    // Past the cap is a 413 (app.onError), not a body that fails to parse.
    if (bodyTooLarge(error)) throw error
    return {
      success: false,
      response: c.json({ message: 'Request body must be JSON' }, 400),
    }
  }
  return parse(c, schema, raw)
}

/** The query string's first value of each name, through `schema`. */
export function readQuery<T>(c: Context, schema: z.ZodType<T>): Parsed<T> {
  return parse(c, schema, c.req.query())
}

function parse<T>(c: Context, schema: z.ZodType<T>, raw: unknown): Parsed<T> {
  const parsed = safeParseRequest(schema, raw)
  if (parsed.success) return { success: true, data: parsed.data }
  const first = parsed.error.issues[0]
  const field = first?.path.join('.')
  return {
    success: false,
    response: c.json(
      {
        message: field
          ? `${field}: ${first?.message}`
          : (first?.message ?? 'Invalid request'),
        errors: parsed.error.issues.map((i) => ({
          path: i.path,
          message: i.message,
        })),
      },
      400,
    ),
  }
}
