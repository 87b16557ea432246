// DELETE /v1/shape as Electric answers it: the shape named by its definition, by its handle,
// or by both, is rotated (its clients get 409 and start again on a new one).
import type { ShapeDatabase } from '../database.ts'
import { definitionKey } from '../shapes/definition.ts'
import { checkBooleans } from './boolean-params.ts'
import { parseDefinition, type Errors } from './request.ts'
import { invalid, jsonResponse } from './responses.ts'

const MISMATCH =
  'The specified shape definition and handle do not match. Please ensure the shape definition is correct or omit the shape handle from the request to obtain a new one.'

const DELETE_BOOLEANS = ['live', 'live_sse', 'experimental_compaction']

/**
 * `allowed` is the deployment's switch (off: 405). The caller has already authorized the
 * request as it would a read of the same shape.
 */
export function deleteShape(
  database: ShapeDatabase,
  query: URLSearchParams,
  allowed: boolean,
): Response {
  if (!allowed) return jsonResponse(405, { message: 'DELETE not allowed' })
  const handle = query.get('handle')
  const errors: Errors = {}
  // Electric casts every parameter of a read here too, so a malformed flag is refused, not dropped.
  checkBooleans(query, DELETE_BOOLEANS, errors)
  let shape
  if (handle && !query.has('table')) {
    if (Object.keys(errors).length > 0) return invalid(errors)
    shape = database.byHandle(handle)
  } else {
    const definition = parseDefinition(query, errors)
    if (!definition || Object.keys(errors).length > 0) return invalid(errors)
    shape = database.findByKey(definitionKey(definition))
    // A handle that names another shape (or an old one) is a mistake to report, not to guess.
    if (shape && handle && shape.handle !== handle)
      return jsonResponse(400, { message: MISMATCH })
  }
  if (!shape) return jsonResponse(404, { message: 'No existing shape found' })
  database.rotate(shape, 'deleted')
  return new Response(null, {
    status: 202,
    headers: { 'cache-control': 'no-cache' },
  })
}
