// Per-minute rates from the engine's running totals (live-shapes/rates.ts): over the last
// minute, from a shape's creation when it was made while counting, and never from one sample.
import { describe, expect, it } from 'vitest'
import type { ShapeFacts } from '../../src/engine/shapes/shape.ts'
import { RateWindow } from '../../src/server/sources/live-shapes/rates.ts'

const facts = (
  requests: number,
  bytesSent: number,
  changesWritten: number,
  createdAt = 0,
): ShapeFacts => ({
  handle: 'h1',
  table: { schema: 'public', name: 'items' },
  where: null,
  params: [],
  ready: true,
  rows: 0,
  logBytes: 0,
  createdAt,
  lastReadAt: null,
  clients: 0,
  requests,
  bytesSent,
  stalled: 0,
  changesWritten,
  logEntries: 0,
  snapshotMs: null,
  lastRotation: null,
})

describe('RateWindow', () => {
  it('counts a shape made while counting from its creation', () => {
    const rates = new RateWindow(1_000)
    expect(rates.update(facts(10, 2_000, 5, 1_000), 31_000)).toEqual({
      requests_per_minute: 20,
      bytes_per_minute: 4_000,
      changes_per_minute: 10,
    })
  })

  it('gives nothing from a single sample of a shape older than the counters', () => {
    const rates = new RateWindow(10_000)
    expect(rates.update(facts(10, 2_000, 5, 0), 15_000)).toEqual({
      requests_per_minute: 0,
      bytes_per_minute: 0,
      changes_per_minute: 0,
    })
    expect(rates.update(facts(16, 2_000, 5, 0), 45_000)).toEqual({
      requests_per_minute: 12,
      bytes_per_minute: 0,
      changes_per_minute: 0,
    })
  })

  it('forgets what is older than a minute: a shape gone quiet goes to zero', () => {
    const rates = new RateWindow(0)
    rates.update(facts(0, 0, 0, 0), 0)
    rates.update(facts(60, 600, 6, 0), 30_000)
    for (let at = 35_000; at <= 90_000; at += 5_000)
      rates.update(facts(60, 600, 6, 0), at)
    expect(rates.update(facts(60, 600, 6, 0), 95_000)).toEqual({
      requests_per_minute: 0,
      bytes_per_minute: 0,
      changes_per_minute: 0,
    })
  })

  it('rates over the last minute only, sample by sample', () => {
    const rates = new RateWindow(0)
    rates.update(facts(0, 0, 0, 0), 0)
    for (let at = 5_000; at <= 120_000; at += 5_000)
      rates.update(facts(at / 1_000, at, 0, 0), at) // one request a second
    expect(rates.update(facts(125, 125_000, 0, 0), 125_000)).toMatchObject({
      requests_per_minute: 60,
      bytes_per_minute: 60_000,
    })
  })
})
