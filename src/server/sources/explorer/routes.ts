// GET /api/v1/sources/:id/schema and /:id/count: the shape explorer's reads of a source's own
// database, mounted by the sources router (sources.ts); the reads themselves are in
// sources/explorer-*.ts. Members only (404 otherwise, as every source route). A source that is
// not active answers 409 at once and one this server does not run yet 503, never a wait.
// Failures answer a status and a JSON body the dashboard shows as 'Code {status}: {body}'.
import type { Context } from 'hono'
import { refuseNul, parseParams, type Errors } from '../../../engine/index.ts'
import type { MemberSource } from '../sources.ts'
import type { AppEnv } from '../../platform/http/context.ts'
import { invalid, type Answer } from './answers.ts'
import type { CountRequest } from './count.ts'
import type { SourceExplorer } from './pools.ts'
import { forwardAction } from '../../cluster/forward.ts'
import { memberSource, notRunning, sourceNotFound } from '../member-source.ts'

type C = Context<AppEnv>

const reply = <T>(c: C, answer: Answer<T>) =>
  answer.ok ? c.json(answer.value) : c.json(answer.body, answer.status)

const notActive = (c: C, why: string) =>
  c.json({ message: `The source is not active: ${why}.` }, 409)

/** The source's explorer, or the answer that stands in for it. */
function explorerOf(c: C, source: MemberSource): SourceExplorer | Response {
  if (source.deleted_at) return notActive(c, 'it is being deleted')
  if (source.state !== 'active')
    return notActive(
      c,
      `it is ${source.state}. Its tables can be explored once it is active`,
    )
  return c.var.deps.sources.explorer(source.id) ?? notRunning(c)
}

/** GET /:id/schema: `[{schema, name}]`, sorted by schema, then name. */
export async function schemaRoute(c: C) {
  const source = await memberSource(c)
  if (!source) return sourceNotFound(c)
  const forwarded = await forwardAction(c, source.id)
  if (forwarded) return forwarded
  const explorer = explorerOf(c, source)
  if (explorer instanceof Response) return explorer
  return reply(c, await explorer.tables())
}

/**
 * GET /:id/count?schema=&name=[&where=][&params[1]=..]: `{count}`, or `{count, estimate: true}`
 * when counting took too long and the planner's estimate stands in for it.
 */
export async function countRoute(c: C) {
  const source = await memberSource(c)
  if (!source) return sourceNotFound(c)
  const forwarded = await forwardAction(c, source.id)
  if (forwarded) return forwarded
  const read = readCountQuery(new URL(c.req.url).searchParams)
  if (!read.ok) return reply(c, invalid(read.errors))
  const explorer = explorerOf(c, source)
  if (explorer instanceof Response) return explorer
  return reply(c, await explorer.count(read.request))
}

// Read as /v1/shape reads its query (not through zod): where and params are the protocol's,
// and so are their 400s, in Electric's format, which the explorer's other refusals share.
function readCountQuery(
  query: URLSearchParams,
): { ok: true; request: CountRequest } | { ok: false; errors: Errors } {
  const errors: Errors = {}
  const name = (param: 'schema' | 'name') => {
    const value = query.get(param)
    if (!value) errors[param] = ["can't be blank"]
    return value ?? ''
  }
  const table = { schema: name('schema'), name: name('name') }
  const params = parseParams(query, errors)
  // Postgres text cannot hold NUL: the catalog lookup or the count would fail, not answer.
  refuseNul(query, null, errors)
  if (Object.keys(errors).length > 0) return { ok: false, errors }
  return {
    ok: true,
    request: { table, where: query.get('where') || null, params },
  }
}
