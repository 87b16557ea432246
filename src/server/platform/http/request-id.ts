// Every request gets an id: the caller's own `x-request-id` when it is a sane token (a proxy or
// load balancer in front usually sets one), else a new one. It is echoed in the answer, and
// every line logged while the request is handled carries it (log.ts).
import { randomUUID } from 'node:crypto'
import { createMiddleware } from 'hono/factory'
import { withRequestId } from '../log.ts'
import type { AppEnv } from './context.ts'

export const REQUEST_ID_HEADER = 'x-request-id'
// Bounded and plain: an id is copied into every log line, so it can hold no line breaks,
// quotes or anything a log reader could take for another field.
const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** The request's id: the incoming one when sane, else a new UUID. */
function requestIdOf(incoming: string | undefined): string {
  return incoming && SANE_ID.test(incoming) ? incoming : randomUUID()
}

export const requestIds = createMiddleware<AppEnv>(async (c, next) => {
  const id = requestIdOf(c.req.header(REQUEST_ID_HEADER))
  // Set before the handler: Hono carries it into whatever response the handler makes.
  c.header(REQUEST_ID_HEADER, id)
  await withRequestId(id, next)
})
