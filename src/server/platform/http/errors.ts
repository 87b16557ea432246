// What a request that threw answers: its HTTPException's own answer, 413 for a body past its
// cap, 400 for text Postgres cannot hold (a NUL that got past http/nul.ts), 503 while the
// control plane is out of reach, and otherwise a 500 whose stack goes to the log, never to the
// client.
import type { ErrorHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { controlPlaneUnavailable } from '../db/database.ts'
import type { Logger } from '../log.ts'
import { bodyTooLarge, tooLargeResponse } from './body-limit.ts'

export const CONTROL_PLANE_UNAVAILABLE_MESSAGE =
  "Sluice can't reach its database right now. Try again in a few seconds."
export const UNSTORABLE_TEXT_MESSAGE =
  'The request holds a NUL character, which Sluice cannot store.'

// 22021 (character_not_in_repertoire) and 22P05 (untranslatable_character): what Postgres says
// of a NUL in text and in JSON. Every string pg sends is valid UTF-8, so NUL is the one cause.
const unstorableText = (error: Error) => {
  const code = (error as { code?: unknown }).code
  return code === '22021' || code === '22P05'
}

/** A control-plane restart takes seconds; the dashboard retries on its own besides. */
const CONTROL_PLANE_RETRY_AFTER_S = 5

export function answerError(log: Logger): ErrorHandler {
  return (error, c) => {
    if (error instanceof HTTPException) return error.getResponse()
    const tooLarge = bodyTooLarge(error)
    if (tooLarge) return tooLargeResponse(c, tooLarge.limit)
    if (unstorableText(error)) {
      log.warn(
        `${c.req.method} ${c.req.path}: ${describe(error)} (text with a NUL)`,
      )
      return c.json({ message: UNSTORABLE_TEXT_MESSAGE }, 400)
    }
    // A restart or an outage of the control plane: retrying soon will do, and a stack trace
    // per request would say nothing the readiness check does not.
    if (controlPlaneUnavailable(error)) {
      log.warn(
        `${c.req.method} ${c.req.path}: the control plane is unavailable (${describe(error)})`,
      )
      return c.json({ message: CONTROL_PLANE_UNAVAILABLE_MESSAGE }, 503, {
        'retry-after': String(CONTROL_PLANE_RETRY_AFTER_S),
      })
    }
    log.error(`${c.req.method} ${c.req.path} failed: ${error.stack ?? error}`)
    return c.json({ message: 'Internal server error' }, 500)
  }
}

// The error's code where it has one (ECONNREFUSED, 57P01), else its first line.
function describe(error: Error): string {
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' ? code : error.message.split('\n')[0]!
}
