// What the shape explorer answers instead of a result: a status and a body the dashboard shows
// as 'Code {status}: {body}'. Refusals of the request use Electric's 400 body, as /v1/shape
// does. Words about the user's database are Sluice's own (describeProblem, as a source's state
// reason reads): what a driver said is never repeated, nor what Postgres said when it holds
// the password.
import { invalidBody } from '../../../engine/index.ts'
import { isSqlState } from '../../validation/sqlstate.ts'
import { problemOf } from '../runtime/connection-url.ts'
import { describeProblem } from '../runtime/lifecycle.ts'

type Refusal = {
  ok: false
  status: 400 | 409 | 502 | 503
  body: { message: string; errors?: Record<string, string[]> }
}

export type Answer<T> = { ok: true; value: T } | Refusal

/** Who the explorer connects as; the password only to withhold texts that hold it. */
export type Credentials = { password: string | null; role?: string }

export const invalid = (errors: Record<string, string[]>): Refusal => ({
  ok: false,
  status: 400,
  body: invalidBody(errors),
})

export const unavailable = (message: string): Refusal => ({
  ok: false,
  status: 503,
  body: { message },
})

// SQLSTATE classes that say the database cannot serve us now rather than that the request was
// wrong: connection exceptions, authorization, a missing database, insufficient resources,
// operator intervention (shutdown, a cancelled statement).
const UNAVAILABLE = /^(08|28|3D|53|57)/
// Data exceptions: only a where clause's own evaluation raises them (division by zero, a value
// out of range, bad input for a cast), which the engine would also fail the snapshot on.
const DATA_EXCEPTION = /^22/

const TIMED_OUT =
  'The database did not answer within the time the explorer allows. Try again shortly.'

const LOCKED =
  'Another transaction holds a lock on this table, and the explorer does not wait behind it. Try again once that transaction ends.'

/** A read that failed on the source's database (or on the way to it), as an answer. */
export function databaseFailure(
  error: unknown,
  credentials: Credentials,
): Refusal {
  const { code, message } = error as { code?: string; message?: string }
  if (code === '57014') return unavailable(TIMED_OUT)
  if (code === '55P03') return unavailable(LOCKED)
  const text = describeProblem(
    problemOf({ code, message: message ?? '' }, credentials.password),
    credentials.role,
  )
  if (!isSqlState(code)) return unavailable(text)
  if (DATA_EXCEPTION.test(code)) return invalid({ where: [text] })
  return UNAVAILABLE.test(code)
    ? unavailable(text)
    : { ok: false, status: 502, body: { message: text } }
}
