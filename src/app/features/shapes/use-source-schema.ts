// A source's readable tables for the explorer's sidebar: read when the source is chosen or the
// reload button asks, and again every 60 s while the page is open.
import { useEffect, useState } from 'react'
import { SCHEMA_REFETCH_MS } from '../../../shared/constants.ts'
import { fetchTables } from './explorer-api.ts'
import { tablesErrorText } from './explorer-errors.ts'
import type { TableRef } from './table-names.ts'

export type SourceSchema =
  | { kind: 'none' }
  | { kind: 'loading' }
  | { kind: 'tables'; tables: TableRef[] }
  | { kind: 'error'; text: string }

export function useSourceSchema(sourceId: string | null): {
  schema: SourceSchema
  reload: () => void
} {
  const [reloads, setReloads] = useState(0)
  // Keyed by what was asked, so another source or a reload reads as loading until answered;
  // the 60 s refetch keeps the key, so the list stays up while it runs.
  const key = `${sourceId}:${reloads}`
  const [answer, setAnswer] = useState<{ key: string; schema: SourceSchema }>()
  useEffect(() => {
    if (!sourceId) return
    let aborter: AbortController | null = null
    const load = () => {
      aborter?.abort()
      const current = new AbortController()
      aborter = current
      fetchTables(sourceId, current.signal).then(
        (tables) => setAnswer({ key, schema: { kind: 'tables', tables } }),
        (error: unknown) => {
          // A newer read or leaving the page aborted it: that is not a failure to show.
          if (current.signal.aborted) return
          setAnswer({
            key,
            schema: { kind: 'error', text: tablesErrorText(error) },
          })
        },
      )
    }
    load()
    const timer = setInterval(load, SCHEMA_REFETCH_MS)
    return () => {
      clearInterval(timer)
      aborter?.abort()
    }
  }, [sourceId, key])
  const reload = () => setReloads((n) => n + 1)
  if (!sourceId) return { schema: { kind: 'none' }, reload }
  if (answer?.key !== key) return { schema: { kind: 'loading' }, reload }
  return { schema: answer.schema, reload }
}
