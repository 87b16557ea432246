// A repeat visit shows what the store holds before the sync starts: the sync's own start-up
// (a dozen statements) would otherwise queue ahead of the page's first live queries in the one
// Postgres they share. Hooks count their first result here; the sync waits for the count.
import { useLiveQuery } from '@electric-sql/pglite-react'
import { useEffect, useRef } from 'react'

let waiting = 0
let listeners: (() => void)[] = []

function settle() {
  if (waiting > 0) return
  const ready = listeners
  listeners = []
  for (const listener of ready) listener()
}

/** Resolves once every live query rendered so far has produced its first result. */
export function firstReadsShown(): Promise<void> {
  return new Promise((resolve) => {
    listeners.push(resolve)
    settle()
  })
}

/** useLiveQuery, counted until its first result (or until it unmounts without one). */
export function useStoreQuery<T extends Record<string, unknown>>(
  sql: string,
  params: unknown[],
): { rows: T[] } | undefined {
  const first = useRef<{ done: boolean } | null>(null)
  // Counted during render: the sync's check runs after the first paint, by when every hook
  // of the first screen has rendered once.
  if (first.current == null) {
    first.current = { done: false }
    waiting++
  }
  const result = useLiveQuery<T>(sql, params)
  useEffect(() => {
    const token = first.current
    const finish = () => {
      if (!token || token.done) return
      token.done = true
      waiting--
      settle()
    }
    if (result) finish()
    return () => {
      // Unmounted before its first result: it no longer holds the sync back.
      if (!result) finish()
    }
  }, [result])
  return result
}
