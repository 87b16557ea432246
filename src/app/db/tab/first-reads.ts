// The first screen of a visit, read as early as the store allows.
//
// A live query's set-up is a transaction of about ten statements (a view, its tables'
// triggers, a prepared statement, a LISTEN per table), each a round trip to the worker, and
// the live queries of one screen queue behind each other. So each hook also reads its rows
// once with a plain query, sent while the screen renders, before any live query has begun;
// those rows show until the live query's own arrive (and from then on only the live ones).
//
// Before even that, a repeat visit shows the rows each read showed last time (last-screen.ts),
// and each answer of the store is kept for the next.
//
// The sync's start-up (a dozen statements) would also queue ahead of those reads in the one
// Postgres they share: hooks count their first answer from the store here, and the sync waits
// for the count.
import { useLiveQuery, usePGlite } from '@electric-sql/pglite-react'
import { useEffect, useRef, useState } from 'react'
import { readOnce } from './direct-requests.ts'
import { keepRows, lastRows } from './last-screen.ts'
import { reportFirstScreen } from '../../lib/first-screen.ts'

let waiting = 0
// No hook has rendered yet: the first screen has not begun, so its reads are not done either
// (the sync asked too early would start ahead of them, and they would wait behind it).
let rendered = false
let listeners: (() => void)[] = []

// Profiling marks (bench:web:profile) for the page's first read only: a tab open for days
// would otherwise add two for every screen it shows.
const marked = new Set<string>()
const markOnce = (name: string) => {
  if (marked.has(name)) return
  marked.add(name)
  performance.mark(name)
}

function countHook() {
  waiting++
  rendered = true
}

function settle() {
  if (waiting > 0 || !rendered) return
  reportFirstScreen()
  const ready = listeners
  listeners = []
  for (const listener of ready) listener()
}

/** Resolves once a screen has rendered and every hook of it has produced its first result. */
export function firstReadsShown(): Promise<void> {
  return new Promise((resolve) => {
    listeners.push(resolve)
    settle()
  })
}

type Rows<T> = { rows: T[] }
type Early<T> = { key: string; result: Rows<T>; remembered?: boolean }
type FirstRead<T> = { key: string; rows: Promise<Rows<T> | undefined> | null }

/** A live query whose first rows come from a one-off read started during the first render. */
export function useStoreQuery<T extends Record<string, unknown>>(
  sql: string,
  params: unknown[],
): Rows<T> | undefined {
  const pg = usePGlite()
  const key = JSON.stringify([sql, params])
  const counted = useRef<{ done: boolean } | null>(null)
  // Until the store answers, what this read showed on the last visit (last-screen.ts).
  const [early, setEarly] = useState<Early<T> | undefined>(() => {
    const rows = lastRows(key)
    return rows && { key, result: { rows: rows as T[] }, remembered: true }
  })
  const live = useLiveQuery<T>(sql, params)

  // Started during render, not in an effect: every hook of the screen sends its read before
  // the first live query's transaction (started in the effects) can hold the database. A new
  // query (the key changed) before the live query has answered gets a read of its own.
  const startRead = (): FirstRead<T> => {
    if (live) return { key, rows: null }
    markOnce('sluice:first-read-sent')
    // A failed read changes nothing: the live query reports and retries as before.
    return { key, rows: readOnce<T>(pg, sql, params).catch(() => undefined) }
  }
  const [read, setRead] = useState(startRead)
  if (read.key !== key) setRead(startRead())
  // Counted during render: the sync's check runs after the first paint, by when every hook
  // of the first screen has rendered once.
  if (counted.current == null) {
    counted.current = { done: false }
    countHook()
  }

  useEffect(() => {
    if (!read.rows) return
    let current = true
    void read.rows.then((result) => {
      markOnce('sluice:first-read')
      if (current && result) setEarly({ key: read.key, result })
    })
    return () => {
      current = false
    }
  }, [read])

  const result = live ?? (early?.key === key ? early.result : undefined)
  // The store's own answers are what the next visit starts from.
  const fromStore = live ?? (early?.remembered ? undefined : result)
  useEffect(() => {
    if (fromStore) keepRows(key, fromStore.rows)
  }, [key, fromStore])
  useEffect(() => {
    const token = counted.current
    const finish = () => {
      if (!token || token.done) return
      token.done = true
      waiting--
      settle()
    }
    // The store's first answer: remembered rows do not count, the store has not yet served.
    if (fromStore) finish()
    return () => {
      // Unmounted before its first result: it no longer holds the sync back.
      if (!fromStore) finish()
    }
  }, [fromStore])
  return result
}
