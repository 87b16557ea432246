// The JSON body of an /api/admin request: a body that does not parse is the input's fault (an
// `invalid` AdminError, 400); one past the cap stays a 413.
import type { Context } from 'hono'
import { bodyTooLarge } from '../platform/http/body-limit.ts'
import { AdminError } from './operations.ts'

export async function adminBody(c: Context): Promise<unknown> {
  try {
    return await c.req.json()
  } catch (error) {
    if (bodyTooLarge(error)) throw error
    throw new AdminError('invalid', 'Request body must be JSON')
  }
}
