// Serves a control-plane shape whose definition the server fixed, through the engine attached
// to the control plane: the dashboard's shapes (gateway/) and the public status (status/). The
// client sends only protocol parameters.
import type { Context } from 'hono'
import {
  HOSTED_TIP_MAX_AGE,
  parseProtocol,
  type Errors,
  invalid,
  serveShape,
  type ShapeDefinition,
} from '../../engine/index.ts'
import type { AppEnv } from '../platform/http/context.ts'

// The definition is the server's: a client trying to set it is told so, not silently served.
const FIXED = [
  'table',
  'where',
  'columns',
  'queryable_columns',
  'params',
  'replica',
]

/** One table of the control plane, one `column = $1` style clause, and its columns. */
export const controlShape = (
  name: string,
  where: string,
  param: string,
  columns: string[],
): ShapeDefinition => ({
  table: { schema: 'public', name },
  where,
  params: [param],
  columns,
  replica: 'default',
})

/** `perUser`: a signed-in user's shape, never cached (serve-shape.ts). */
export async function serveControlShape(
  c: Context<AppEnv>,
  definition: ShapeDefinition,
  signal: AbortSignal,
  perUser: boolean,
): Promise<Response> {
  const shapes = c.var.deps.shapes
  const query = new URL(c.req.url).searchParams
  const errors: Errors = {}
  for (const name of FIXED)
    if ([...query.keys()].some((k) => k === name || k.startsWith(`${name}[`)))
      errors[name] = ['is set by the server for this shape']
  const request = parseProtocol(query, errors)
  if (Object.keys(errors).length > 0) return invalid(errors)
  return serveShape({
    database: shapes,
    definition,
    request,
    signal,
    perUser,
    ifNoneMatch: c.req.header('if-none-match') ?? null,
    // The dashboard's pglite-sync reads several shapes at once (answer-headers.ts).
    tipMaxAge: HOSTED_TIP_MAX_AGE,
  })
}
