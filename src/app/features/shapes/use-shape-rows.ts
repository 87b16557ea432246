// The rows of the shape on screen, live: the official Electric client against the apps' own
// endpoint (/v1/shape with the source's id and secret), as an app would sync it, its rows kept
// with their moves (a where clause with a subquery: lib/moving-rows.ts). The stream stops when
// the shape changes or the page goes.
import { ShapeStream, type Row } from '@electric-sql/client'
import { MovingRows } from '../../lib/moving-rows.ts'
import { useEffect, useState } from 'react'
import { liveShape, liveSyncFetch } from '../../lib/live-sync.ts'
import { shapeErrorText } from './explorer-errors.ts'
import { columnsOf, type ShapeColumn } from './shape-columns.ts'
import { quotedTable, type TableRef } from './table-names.ts'
import { API_MOUNTS } from '../../../shared/api-routes.ts'

/** What the grid syncs: the source's credentials and the shape's definition. */
export type ShapeSource = {
  sourceId: string
  secret: string
  table: TableRef
  where: string
}

export type GridRow = { key: string; values: Row }

export type ShapeRows =
  | { kind: 'loading' }
  /** `handle`: the shape's, as the server named it (the Shape Inspector reads it). */
  | {
      kind: 'rows'
      columns: ShapeColumn[]
      rows: GridRow[]
      handle: string | null
    }
  | { kind: 'error'; text: string }

export const shapeUrl = () =>
  new URL(API_MOUNTS.shape, location.origin).toString()

type ShapeParams = {
  source_id: string
  source_secret: string
  table: string
  where?: string
}

/** The query parameters of the shape, as the stream and the snippets send them. */
export function shapeParams(shape: ShapeSource): ShapeParams {
  return {
    source_id: shape.sourceId,
    source_secret: shape.secret,
    table: quotedTable(shape.table),
    ...(shape.where ? { where: shape.where } : {}),
  }
}

const rowsOf = (value: Map<string, Row>): GridRow[] =>
  Array.from(value, ([key, values]) => ({ key, values }))

export function useShapeRows(shape: ShapeSource | null): ShapeRows {
  const key = shape && JSON.stringify(shape)
  const [answer, setAnswer] = useState<{ key: string; rows: ShapeRows }>()
  useEffect(() => {
    if (!key) return
    const source = JSON.parse(key) as ShapeSource
    const aborter = new AbortController()
    let columns: ShapeColumn[] = []
    const stream = new ShapeStream({
      ...liveShape(shapeUrl()),
      params: shapeParams(source),
      signal: aborter.signal,
      // The schema header names the columns in the table's order, rows or none.
      fetchClient: async (input, init) => {
        const response = await liveSyncFetch(input, init)
        columns = columnsOf(response.headers.get('electric-schema')) ?? columns
        return response
      },
      // Only errors the client does not retry arrive here (4xx): they end the stream.
      onError: (error) => {
        if (aborter.signal.aborted) return
        setAnswer({ key, rows: { kind: 'error', text: shapeErrorText(error) } })
      },
    })
    const held = new MovingRows()
    let upToDate = false
    let answered = false
    const unsubscribe = stream.subscribe((messages) => {
      let changed = false
      for (const message of messages) {
        changed = held.apply(message) || changed
        const { control } = message.headers
        if (control === 'up-to-date') upToDate = true
        // Starting over: the rows so far are gone, the next up-to-date shows the new ones.
        if (control === 'must-refetch') upToDate = false
      }
      // Shown once the shape is up to date, then after every change.
      if (upToDate && (changed || !answered)) {
        answered = true
        setAnswer({
          key,
          rows: {
            kind: 'rows',
            columns,
            rows: rowsOf(held.rows),
            handle: stream.shapeHandle ?? null,
          },
        })
      }
    })
    return () => {
      unsubscribe()
      aborter.abort()
    }
  }, [key])
  if (!key) return { kind: 'loading' }
  return answer?.key === key ? answer.rows : { kind: 'loading' }
}
