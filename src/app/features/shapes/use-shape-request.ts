// Creating a shape: the row count first, then the shape is remembered under its team,
// source and table with its where clause, or a warning says it holds too many rows. A where
// clause a remembered shape already has asks nothing; a newer request aborts the older, whose
// answer then shows nothing.
import { useEffect, useState } from 'react'
import { countRows } from './explorer-api.ts'
import { countErrorText } from './explorer-errors.ts'
import { shapeKey, tooManyRows, type ShapeTarget } from './shape-rules.ts'

export type ShapeRequest =
  | { kind: 'idle' }
  | { kind: 'loading' }
  /** The shape is created: the grid may show it. */
  | { kind: 'shape' }
  /** `estimate`: the count is Postgres's estimate, not an exact count. */
  | { kind: 'warning'; count: number; estimate: boolean }
  | { kind: 'error'; text: string }

type Outcome = Extract<ShapeRequest, { kind: 'warning' | 'error' }>

export function useShapeRequest(target: ShapeTarget | null) {
  // Each key's where clause, once its shape was created.
  const [shapes, setShapes] = useState<ReadonlyMap<string, string>>(new Map())
  const [attempt, setAttempt] = useState(0)
  const [outcome, setOutcome] = useState<{
    request: string
    outcome: Outcome
  }>()
  const key = target && shapeKey(target)
  const where = target?.where ?? ''
  const request = key && JSON.stringify([key, where, attempt])
  const created = key !== null && shapes.get(key) === where
  const sourceId = target?.sourceId
  const schema = target?.table.schema
  const name = target?.table.name

  useEffect(() => {
    if (!key || !request || created || !sourceId) return
    if (schema === undefined || name === undefined) return
    const aborter = new AbortController()
    countRows(sourceId, { schema, name }, where, aborter.signal).then(
      ({ count, estimate = false }) => {
        if (tooManyRows(count))
          setOutcome({ request, outcome: { kind: 'warning', count, estimate } })
        else setShapes((known) => new Map(known).set(key, where))
      },
      (error: unknown) => {
        if (aborter.signal.aborted) return
        setOutcome({
          request,
          outcome: { kind: 'error', text: countErrorText(error) },
        })
      },
    )
    return () => aborter.abort()
  }, [key, request, created, sourceId, schema, name, where])

  let state: ShapeRequest
  if (!request) state = { kind: 'idle' }
  else if (created) state = { kind: 'shape' }
  else if (outcome?.request === request) state = outcome.outcome
  else state = { kind: 'loading' }
  return {
    state,
    /** The where clause of the shape remembered for this team, source and table, if any. */
    whereOf: (other: Omit<ShapeTarget, 'where'>) => shapes.get(shapeKey(other)),
    /** Asks again for the same where clause (after a warning or an error). */
    retry: () => setAttempt((n) => n + 1),
  }
}
