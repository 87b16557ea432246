// The rows of a shape as its messages leave them, moves included: a shape whose where clause
// holds a subquery tags each row with the values it hangs on (`tags`, one `/`-joined slot per
// position of each disjunct) and which positions hold (`active_conditions`); a `move-out`
// event turns a position off for every row tagged with its value (a row no disjunct keeps
// leaves), a `move-in` turns it on. The official client's `Shape` ignores those events, so a
// row moved out would stay; this applies them as Electric's own consumers do.
import type { Message, Row } from '@electric-sql/client'

type Pattern = { pos: number; value: string }

type Tracked = {
  tags: Set<string>
  active: boolean[] | null
}

export class MovingRows {
  readonly rows = new Map<string, Row>()
  private tracked = new Map<string, Tracked>()
  /** Per position, per value: the keys tagged with it. */
  private index: Array<Map<string, Set<string>>> = []
  /** Per disjunct, its positions: learned from the first tags seen (fixed for a shape). */
  private disjuncts: number[][] | null = null

  /** Applies one message; true when the rows changed. */
  apply(message: Message<Row>): boolean {
    const headers = message.headers as Record<string, unknown>
    if ('key' in message)
      return this.change(message.key, message.value, headers)
    if (headers.control === 'must-refetch') {
      this.clear()
      return true
    }
    const patterns = headers.patterns as Pattern[] | undefined
    if (headers.event === 'move-out' && patterns) return this.moveOut(patterns)
    if (headers.event === 'move-in' && patterns) this.moveIn(patterns)
    return false
  }

  private clear(): void {
    this.rows.clear()
    this.tracked.clear()
    this.index = []
    this.disjuncts = null
  }

  private change(
    key: string,
    value: Row,
    headers: Record<string, unknown>,
  ): boolean {
    if (headers.operation === 'delete') {
      this.forget(key)
      return this.rows.delete(key)
    }
    // An update carries the columns that changed (all of them without an old row).
    const before =
      headers.operation === 'update' ? this.rows.get(key) : undefined
    this.rows.set(key, before ? { ...before, ...value } : value)
    const tags = headers.tags as string[] | undefined
    const removed = headers.removed_tags as string[] | undefined
    if (tags || removed) {
      const tracked = this.tracked.get(key) ?? { tags: new Set(), active: null }
      this.tracked.set(key, tracked)
      for (const tag of removed ?? []) this.untag(key, tracked, tag)
      for (const tag of tags ?? []) this.tag(key, tracked, tag)
      const active = headers.active_conditions as boolean[] | undefined
      if (active?.length) tracked.active = [...active]
    }
    return true
  }

  private tag(key: string, tracked: Tracked, tag: string): void {
    const slots = tag.split('/')
    tracked.tags.add(tag)
    slots.forEach((value, pos) => {
      if (!value) return
      const byValue = (this.index[pos] ??= new Map())
      let keys = byValue.get(value)
      if (!keys) byValue.set(value, (keys = new Set()))
      keys.add(key)
    })
    this.learnDisjunct(slots)
  }

  // The positions each disjunct holds, read off the tags: a tag is one disjunct's slots.
  private learnDisjunct(slots: string[]): void {
    const positions = slots.flatMap((value, pos) => (value ? [pos] : []))
    this.disjuncts ??= []
    if (!this.disjuncts.some((d) => d.join() === positions.join()))
      this.disjuncts.push(positions)
  }

  private untag(key: string, tracked: Tracked, tag: string): void {
    if (!tracked.tags.delete(tag)) return
    tag.split('/').forEach((value, pos) => {
      if (value) this.index[pos]?.get(value)?.delete(key)
    })
  }

  private forget(key: string): void {
    const tracked = this.tracked.get(key)
    if (!tracked) return
    for (const tag of [...tracked.tags]) this.untag(key, tracked, tag)
    this.tracked.delete(key)
  }

  private tagged({ pos, value }: Pattern): string[] {
    return [...(this.index[pos]?.get(value) ?? [])]
  }

  private moveOut(patterns: Pattern[]): boolean {
    let changed = false
    for (const pattern of patterns)
      for (const key of this.tagged(pattern)) {
        const tracked = this.tracked.get(key)
        if (!tracked) continue
        if (tracked.active) tracked.active[pattern.pos] = false
        // Without conditions, the row's tags are its reasons: it leaves with the last one.
        else
          for (const tag of [...tracked.tags])
            if (tag.split('/')[pattern.pos] === pattern.value)
              this.untag(key, tracked, tag)
        if (this.kept(tracked)) continue
        this.forget(key)
        changed = this.rows.delete(key) || changed
      }
    return changed
  }

  private moveIn(patterns: Pattern[]): void {
    for (const pattern of patterns)
      for (const key of this.tagged(pattern)) {
        const active = this.tracked.get(key)?.active
        if (active) active[pattern.pos] = true
      }
  }

  // Some disjunct has every one of its positions holding.
  private kept(tracked: Tracked): boolean {
    const { active } = tracked
    if (!active) return tracked.tags.size > 0
    return (this.disjuncts ?? []).some((positions) =>
      positions.every((pos) => active[pos] === true),
    )
  }
}
