// A source's public status, live: the public shape of its displayed-state columns through the
// official Electric client. No PGlite here: a visitor is not signed in and has no store.
import { FetchError, Shape, ShapeStream } from '@electric-sql/client'
import { useEffect, useState } from 'react'
import { z } from 'zod'
import { idSchema } from '../../../shared/entities.ts'
import { liveShape } from '../../lib/live-sync.ts'
import { sourceStatusPath } from '../../../shared/api-routes.ts'

const statusRowSchema = z.object({
  id: z.string(),
  state: z.string(),
  deleted_at: z.string().nullable(),
  target_electric_url: z.string().nullable(),
})
type SourceStatusRow = z.infer<typeof statusRowSchema>

export type SourceStatus =
  | { kind: 'loading' }
  | { kind: 'found'; source: SourceStatusRow }
  | { kind: 'not-found' }
  | { kind: 'failed'; message: string }

export function useSourceStatus(sourceId: string): SourceStatus {
  // Keyed by source, so another id reads as loading until its own answer arrives.
  const [answer, setAnswer] = useState<{
    sourceId: string
    status: SourceStatus
  }>()
  // No source has an id that is not a uuid: nothing to ask the server (it would answer 404).
  const wellFormed = idSchema.safeParse(sourceId).success
  useEffect(() => {
    if (!wellFormed) return
    const setStatus = (status: SourceStatus) => setAnswer({ sourceId, status })
    const aborter = new AbortController()
    // The app's one retry policy (5xx, 429, failed fetches; lib/live-sync.ts) and its shared
    // connectivity gate.
    const stream = new ShapeStream({
      ...liveShape(
        new URL(sourceStatusPath(sourceId), location.origin).toString(),
      ),
      signal: aborter.signal,
      // Only errors the client does not retry arrive here (4xx): they end the stream.
      onError: (error) => {
        if (error instanceof FetchError && error.status === 404)
          setStatus({ kind: 'not-found' })
        else
          setStatus({
            kind: 'failed',
            message:
              error instanceof FetchError
                ? `Code ${error.status}: ${error.text ?? error.message}`
                : error.message,
          })
      },
    })
    const shape = new Shape(stream)
    const unsubscribe = shape.subscribe(({ rows }) => {
      // Called once the shape is up to date, then on every change.
      const row = statusRowSchema.safeParse(rows[0])
      setStatus(
        row.success
          ? { kind: 'found', source: row.data }
          : { kind: 'not-found' },
      )
    })
    return () => {
      unsubscribe()
      aborter.abort()
    }
  }, [sourceId, wellFormed])
  if (!wellFormed) return { kind: 'not-found' }
  return answer?.sourceId === sourceId ? answer.status : { kind: 'loading' }
}
