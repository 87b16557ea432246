// The engine on its own: one database as an Electric-compatible HTTP service.
import { timingSafeEqual } from 'node:crypto'
import { Hono } from 'hono'
import type { ShapeDatabase } from '../database.ts'
import { definitionKey } from '../shapes/definition.ts'
import { parseDefinition, type Errors } from './request.ts'
import {
  EXPOSED_HEADERS,
  invalid,
  jsonResponse,
  serveShapeQuery,
} from './serve-shape.ts'

export type EngineAppOptions = {
  database: ShapeDatabase
  /** When set, every request must carry `?secret=` with this value. */
  secret?: string
  allowShapeDeletion?: boolean
}

function sameSecret(given: string | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? '')
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

export function createEngineApp(options: EngineAppOptions): Hono {
  const { database } = options
  const app = new Hono()
  app.use('*', async (c, next) => {
    await next()
    c.res.headers.set('access-control-allow-origin', '*')
    c.res.headers.set('access-control-expose-headers', EXPOSED_HEADERS)
  })
  app.options('*', (c) =>
    c.body(null, 204, {
      'access-control-allow-methods': 'GET, DELETE, OPTIONS',
      'access-control-allow-headers': '*',
      'access-control-max-age': '86400',
    }),
  )
  app.get('/v1/health', (c) => {
    const active = database.status === 'active'
    return c.json({ status: active ? 'active' : 'waiting' }, active ? 200 : 202)
  })
  app.use('/v1/shape', async (c, next) => {
    if (options.secret && !sameSecret(c.req.query('secret'), options.secret))
      return jsonResponse(401, { message: 'Unauthorized' })
    return next()
  })
  app.get('/v1/shape', (c) =>
    serveShapeQuery(database, new URL(c.req.url).searchParams, c.req.raw),
  )
  app.delete('/v1/shape', async (c) => {
    if (!options.allowShapeDeletion)
      return jsonResponse(405, { message: 'Shape deletion is disabled' })
    const query = new URL(c.req.url).searchParams
    const handle = query.get('handle')
    let shape = handle ? database.byHandle(handle) : undefined
    if (!handle) {
      const errors: Errors = {}
      const definition = parseDefinition(query, errors)
      if (!definition) return invalid(errors)
      shape = database.findByKey(definitionKey(definition))
    }
    if (!shape) return jsonResponse(404, { message: 'Shape not found' })
    database.rotate(shape)
    return c.body(null, 202)
  })
  return app
}
