// A cap on a database's shapes (Electric's ELECTRIC_MAX_SHAPES): every so often, when there
// are more than the cap, the least recently read are removed. Their clients get a 409 and
// start again on a new shape, as after any rotation; a new shape is never refused.
//
// Why a periodic pass, as Electric's (every 60 s), rather than a removal as each shape is made:
// a removed shape whose clients are still there comes back at their next request, so with more
// shapes in use than the cap each creation would remove one in use, whose return removes
// another, without end. A pass removes the excess once a period; between passes the count may
// pass the cap by what a period creates (creation itself is bounded by admission's initial
// permits, http/admission.ts).

/** Electric's ExpiryManager period. */
const EXPIRY_PERIOD_MS = 60_000

/** What a pass reads of a shape. */
export type Expirable = {
  /** Snapshot complete: one still being taken is a client's first read, never expired. */
  readonly ready: boolean
  readonly createdAt: number
  readonly lastReadAt: number | null
}

/**
 * The `count` shapes read longest ago (never read since the engine started: by creation), least
 * recent first. Not candidates: a shape still taking its snapshot, and one never read that was
 * made after `bornBefore`. Its first client is then on its way: the snapshot's end wakes the
 * request in a later turn, and a pass between the two would answer it with a 409. Electric
 * likewise passes over a shape that has not started yet. Shapes reopened after a restart and
 * never read since are candidates by their creation.
 */
export function leastRecentlyUsed<S extends Expirable>(
  shapes: Iterable<S>,
  count: number,
  bornBefore = Infinity,
): S[] {
  if (count <= 0) return []
  const candidates: S[] = []
  for (const shape of shapes)
    if (
      shape.ready &&
      (shape.lastReadAt !== null || shape.createdAt < bornBefore)
    )
      candidates.push(shape)
  // A pass runs once a period over at most the cap plus what came since: a sort is enough.
  candidates.sort((a, b) => recency(a) - recency(b))
  return candidates.slice(0, count)
}

const recency = (shape: Expirable) => shape.lastReadAt ?? shape.createdAt

export type ShapeCap<S extends Expirable> = {
  maxShapes: number
  periodMs?: number
  shapes: () => { size: number; values(): Iterable<S> }
  /** False while shapes may still be reopening (replication not active): no pass then. */
  active: () => boolean
  remove: (shape: S) => void
}

/** Runs the passes of one database (database.ts). */
export class ShapeExpiry<S extends Expirable> {
  private timer: NodeJS.Timeout | null = null

  constructor(private readonly cap: ShapeCap<S>) {}

  start(): void {
    this.timer = setInterval(
      () => this.pass(),
      this.cap.periodMs ?? EXPIRY_PERIOD_MS,
    )
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  /** Removes the excess over the cap, least recently read first; answers how many. */
  pass(): number {
    if (!this.cap.active()) return 0
    const shapes = this.cap.shapes()
    const excess = shapes.size - this.cap.maxShapes
    if (excess <= 0) return 0
    const period = this.cap.periodMs ?? EXPIRY_PERIOD_MS
    // A new shape not read yet gets one period for its first client's answer.
    const removed = leastRecentlyUsed(
      shapes.values(),
      excess,
      Date.now() - period,
    )
    for (const shape of removed) this.cap.remove(shape)
    return removed.length
  }
}
