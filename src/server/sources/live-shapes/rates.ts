// Per-minute rates of each shape's counters (requests, bytes served, changes written), over the
// last minute, from the engine's running totals as the live-shapes writer samples them (every
// 5 s). The engine only adds to plain counters on its answer path; the arithmetic is here, once
// per sample, and pure but for the samples it keeps.
import type { ShapeFacts } from '../../../engine/index.ts'

/** Rates are over this much of the recent past. */
const RATE_WINDOW_MS = 60_000

type Sample = { at: number; requests: number; bytes: number; changes: number }

export type ShapeRates = {
  requests_per_minute: number
  bytes_per_minute: number
  changes_per_minute: number
}

const ZERO: ShapeRates = {
  requests_per_minute: 0,
  bytes_per_minute: 0,
  changes_per_minute: 0,
}

// Two decimals: a rate that only drifts in its last digits is not a change worth a row update.
const perMinute = (delta: number, ms: number) =>
  ms <= 0 ? 0 : Math.round((delta / ms) * RATE_WINDOW_MS * 100) / 100

export class RateWindow {
  private readonly samples = new Map<string, Sample[]>()

  /** `since`: when the engine's counters started (shapes made before it count from there). */
  constructor(private readonly since: number) {}

  /** Records the shape's counters at `now`; answers its rates over the last minute. */
  update(facts: ShapeFacts, now: number): ShapeRates {
    const sample: Sample = {
      at: now,
      requests: facts.requests,
      bytes: facts.bytesSent,
      changes: facts.changesWritten,
    }
    let kept = this.samples.get(facts.handle)
    if (!kept) {
      kept = []
      // Made while counting: its counters were 0 when it was made.
      if (facts.createdAt >= this.since)
        kept.push({ at: facts.createdAt, requests: 0, bytes: 0, changes: 0 })
      this.samples.set(facts.handle, kept)
    }
    kept.push(sample)
    // The oldest sample kept is the last one at or before the window's start.
    while (kept.length > 2 && (kept[1] as Sample).at <= now - RATE_WINDOW_MS)
      kept.shift()
    const base = kept[0] as Sample
    if (base === sample) return ZERO
    const ms = now - base.at
    return {
      requests_per_minute: perMinute(sample.requests - base.requests, ms),
      bytes_per_minute: perMinute(sample.bytes - base.bytes, ms),
      changes_per_minute: perMinute(sample.changes - base.changes, ms),
    }
  }

  /** Drops the samples of shapes no longer held. */
  keepOnly(handles: ReadonlySet<string>): void {
    for (const handle of this.samples.keys())
      if (!handles.has(handle)) this.samples.delete(handle)
  }
}
