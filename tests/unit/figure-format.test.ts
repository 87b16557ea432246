// How a source's figures read (metrics/figure-format.ts) and how the Live shapes are ordered
// (live-shape-format.ts): short axes, words for screen readers, causes, dialogs and series.
import { describe, expect, it } from 'vitest'
import type {
  LiveShapeWithFigures,
  ShapePoint,
} from '../../src/app/db/tab/figure-types.ts'
import { orderShapes } from '../../src/app/features/sources/live-shape-format.ts'
import {
  causeLabel,
  formatBytesShort,
  formatRate,
  formatTick,
  invalidatedEventLine,
  rotationImpact,
  seriesSummary,
  shapeSeries,
} from '../../src/app/features/sources/metrics/figure-format.ts'
import { INVALIDATION_CAUSES } from '../../src/shared/sources.ts'

describe('formatRate', () => {
  it('keeps small rates to two decimals and large ones compact', () => {
    expect(formatRate(0)).toBe('0')
    expect(formatRate(0.25)).toBe('0.25')
    expect(formatRate(12)).toBe('12')
    expect(formatRate(1234)).toBe('1.2K')
    expect(formatRate(3_400_000)).toBe('3.4M')
  })
})

describe('formatBytesShort', () => {
  it('has one decimal at most, none past 10 of a unit', () => {
    expect(formatBytesShort(512)).toBe('512 B')
    expect(formatBytesShort(1536)).toBe('1.5 KiB')
    expect(formatBytesShort(12.4 * 1024 * 1024)).toBe('12 MiB')
    expect(formatBytesShort(3 * 1024 ** 3)).toBe('3 GiB')
  })
})

describe('formatTick', () => {
  const at = new Date('2026-03-05T14:07:00Z')
  it('reads as a time of day for an hour or a day, and as a date over a week', () => {
    expect(formatTick(at, 'hour')).toMatch(/^\d{2}:\d{2}$/)
    expect(formatTick(at, 'day')).toBe(formatTick(at, 'hour'))
    expect(formatTick(at, 'week')).not.toMatch(/:/)
  })
})

describe('seriesSummary', () => {
  it('says the latest value and the peak, skipping gaps', () => {
    expect(seriesSummary('Lag', [1, 5, null, 2, null], String)).toBe(
      'Lag: latest 2, peak 5.',
    )
  })
  it('says when a series has no value in the window', () => {
    expect(seriesSummary('Lag', [null, null], String)).toBe('Lag: no figures.')
  })
})

describe('causeLabel', () => {
  it('names every cause in words, and leaves an unknown one as it is', () => {
    for (const cause of INVALIDATION_CAUSES)
      expect(causeLabel(cause)).not.toBe(cause)
    expect(causeLabel('clear_cache')).toBe('Cache cleared')
    expect(causeLabel('dependency')).toBe('Subquery dependency changed')
    expect(causeLabel('something_new')).toBe('something_new')
  })
})

describe('rotationImpact', () => {
  it('counts the shapes and clients a rotation touches', () => {
    expect(rotationImpact(12, 30)).toBe(
      'This rotates 12 shapes; 30 clients will refetch.',
    )
    expect(rotationImpact(1, 1)).toBe(
      'This rotates 1 shape; 1 client will refetch.',
    )
    expect(rotationImpact(0, 0)).toBe(
      'No shape is live now, so no client refetches.',
    )
  })
})

describe('invalidatedEventLine', () => {
  it('reads the event as a sentence', () => {
    expect(
      invalidatedEventLine({ cause: 'schema_change', shapes: 3, clients: 1 }),
    ).toBe('Schema changed: 3 shapes rotated, 1 client refetched.')
  })
  it('leaves details of another shape to the generic lines', () => {
    expect(invalidatedEventLine('text')).toBeNull()
    expect(invalidatedEventLine({ cause: 'deleted' })).toBeNull()
  })
})

describe('shapeSeries', () => {
  const point = (at: string, handle: string, clients: number): ShapePoint => ({
    at,
    handle,
    label: `label ${handle}`,
    clients,
    bytes_per_minute: 0,
  })
  const points = [
    point('2026-03-05T14:01:00Z', 'a', 1),
    point('2026-03-05T14:00:00Z', 'b', 9),
    point('2026-03-05T14:01:00Z', 'b', 7),
    point('2026-03-05T14:02:00Z', 'c', 2),
  ]

  it('puts each shape on the shared times, null where it was not among the busiest', () => {
    const { times, series } = shapeSeries(points, (p) => p.clients, 10)
    expect(times).toEqual([
      '2026-03-05T14:00:00Z',
      '2026-03-05T14:01:00Z',
      '2026-03-05T14:02:00Z',
    ])
    expect(series).toEqual([
      { handle: 'b', label: 'label b', values: [9, 7, null] },
      { handle: 'c', label: 'label c', values: [null, null, 2] },
      { handle: 'a', label: 'label a', values: [null, 1, null] },
    ])
  })

  it('keeps the largest totals only', () => {
    const { series } = shapeSeries(points, (p) => p.clients, 1)
    expect(series.map((s) => s.handle)).toEqual(['b'])
  })
})

describe('orderShapes', () => {
  const shape = (
    handle: string,
    bytes: number,
    clients: number,
  ): LiveShapeWithFigures => ({
    source_id: '00000000-0000-4000-8000-000000000001',
    handle,
    table_schema: 'public',
    table_name: 'items',
    where_clause: null,
    params: [],
    row_count: 0,
    log_bytes: 0,
    created_at: '2026-03-05T14:07:09.250Z',
    last_read_at: null,
    clients,
    requests_per_minute: 0,
    bytes_per_minute: bytes,
    changes_per_minute: 0,
    stalled_requests: 0,
    log_entries: 0,
    last_rotation_at: null,
    last_rotation_cause: null,
  })
  const shapes = [
    shape('new', 10, 1),
    shape('mid', 300, 0),
    shape('old', 20, 5),
  ]

  it('keeps the store order for newest, and puts the hottest first otherwise', () => {
    expect(orderShapes(shapes, 'newest')).toBe(shapes)
    expect(orderShapes(shapes, 'bytes').map((s) => s.handle)).toEqual([
      'mid',
      'old',
      'new',
    ])
    expect(orderShapes(shapes, 'clients').map((s) => s.handle)).toEqual([
      'old',
      'new',
      'mid',
    ])
  })
})
