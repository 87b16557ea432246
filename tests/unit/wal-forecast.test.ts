// The WAL forecast, pure: readings with their times in, seconds left (or null) out.
import { describe, expect, it } from 'vitest'
import {
  addReading,
  DEFAULT_FORECAST_WINDOW,
  walForecastSeconds,
  type RetainedReading,
} from '../../src/server/sources/runtime/wal-forecast.ts'

const MiB = 1024 ** 2
const minute = 60_000

/** Readings every 15 s from t = 0, retained WAL as `bytesAt(seconds)`. */
function readings(
  count: number,
  bytesAt: (seconds: number) => number,
): RetainedReading[] {
  return Array.from({ length: count }, (_, i) => ({
    at: i * 15_000,
    retainedBytes: bytesAt(i * 15),
  }))
}

describe('walForecastSeconds', () => {
  it('divides the room left by the growth rate over the window', () => {
    // 1 MiB/s for 5 minutes: 300 MiB of growth; 600 MiB left is 600 s.
    const growing = readings(21, (s) => 10 * MiB + s * MiB)
    expect(walForecastSeconds(growing, 600 * MiB)).toBe(600)
    expect(walForecastSeconds(growing, 90 * MiB)).toBe(90)
  })

  it('is null when the database sets no limit', () => {
    const growing = readings(21, (s) => s * MiB)
    expect(walForecastSeconds(growing, null)).toBeNull()
  })

  it('is null when the slot is not falling behind', () => {
    // A healthy slot: retained WAL rises and falls as its restart point moves.
    const wobbling = readings(40, (s) => ((s / 15) % 2) * 8 * MiB)
    expect(walForecastSeconds(wobbling, 100 * MiB)).toBeNull()
    // Shrinking: the slot is catching up.
    const shrinking = readings(10, (s) => 500 * MiB - s * MiB)
    expect(walForecastSeconds(shrinking, 100 * MiB)).toBeNull()
    // Growth below the minimum over the window is noise.
    const creeping = readings(
      40,
      (s) => (s / 600) * (DEFAULT_FORECAST_WINDOW.minGrowthBytes - 1),
    )
    expect(walForecastSeconds(creeping, 100 * MiB)).toBeNull()
  })

  it('needs two readings at different times', () => {
    expect(walForecastSeconds([], 100 * MiB)).toBeNull()
    expect(
      walForecastSeconds([{ at: 0, retainedBytes: 900 * MiB }], 100 * MiB),
    ).toBeNull()
  })

  it('is 0 when the room is already used up', () => {
    const growing = readings(5, (s) => s * MiB)
    expect(walForecastSeconds(growing, 0)).toBe(0)
    expect(walForecastSeconds(growing, -5 * MiB)).toBe(0)
  })
})

describe('addReading', () => {
  it('keeps only the readings within the window', () => {
    let kept: RetainedReading[] = []
    for (let i = 0; i <= 20; i += 1)
      kept = addReading(kept, { at: i * minute, retainedBytes: i })
    // Ten minutes back from minute 20, both ends included.
    expect(kept.map((r) => r.retainedBytes)).toEqual([
      10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
    ])
  })

  it('forgets the growth of an old burst once it leaves the window', () => {
    let kept: RetainedReading[] = []
    kept = addReading(kept, { at: 0, retainedBytes: 0 })
    kept = addReading(kept, { at: minute, retainedBytes: 200 * MiB })
    expect(walForecastSeconds(kept, 100 * MiB)).not.toBeNull()
    kept = addReading(kept, { at: 11 * minute, retainedBytes: 200 * MiB })
    expect(walForecastSeconds(kept, 100 * MiB)).toBeNull()
  })

  it('drops readings from a clock that went back', () => {
    const kept = addReading([{ at: 5 * minute, retainedBytes: 1 }], {
      at: 4 * minute,
      retainedBytes: 2,
    })
    expect(kept).toEqual([{ at: 4 * minute, retainedBytes: 2 }])
  })
})
