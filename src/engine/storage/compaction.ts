// Electric's compaction rule for a stretch of a shape's log: a key's consecutive updates become
// one, at the last one's offset, whose value holds every column they changed (the latest value
// of each) and whose old value the earliest; inserts and deletes stay as they are. A client at
// any offset inside the stretch still ends up with the rows Postgres has: it reads, for each key,
// the merged update of the run it is in (columns it saw again, with their latest values), then
// what followed. A new client reads an insert and at most one update per row, not the history.
//
// Two passes over the stretch, so memory holds one bit per record and the runs still open, not
// the records: the first finds which updates a later update of their key replaces, the second
// merges those into the one that stays.

type Message = {
  key?: string
  value?: Record<string, unknown>
  old_value?: Record<string, unknown>
  headers?: { operation?: string; tags?: unknown }
}

export class UpdateRuns {
  /** Bit i: record i is an update a later update of its key replaces. */
  private replaced = new Uint8Array(1024)
  /** Per key, the record index of the last update of the run it is in (first pass). */
  private open = new Map<string, number>()
  /** Per key, the updates replaced so far, merged (second pass). */
  private merged = new Map<string, Message>()

  /** First pass: record `i` of the stretch, in order. */
  see(i: number, json: string): void {
    if (!json) return
    const message = JSON.parse(json) as Message
    const key = message.key
    if (key === undefined) return
    // A shape with subqueries tags its updates (tags, removed tags): merged, a client would
    // keep a tag an update removed, and a move-out would then drop a row it should keep.
    if (message.headers?.operation !== 'update' || message.headers.tags) {
      this.open.delete(key)
      return
    }
    const previous = this.open.get(key)
    if (previous !== undefined) this.mark(previous)
    this.open.set(key, i)
  }

  /** Second pass: the JSON record `i` is written as, or null when a later update holds it. */
  keep(i: number, json: string): string | null {
    const replaced = this.isReplaced(i)
    // Most records: nothing replaced, nothing to merge into them.
    if (!json || (!replaced && this.merged.size === 0)) return json
    const message = JSON.parse(json) as Message
    if (message.headers?.operation !== 'update') return json
    const key = message.key ?? ''
    const before = this.merged.get(key)
    const next: Message = before
      ? {
          ...message,
          value: { ...before.value, ...message.value },
          ...(before.old_value || message.old_value
            ? { old_value: { ...message.old_value, ...before.old_value } }
            : {}),
        }
      : message
    if (replaced) {
      this.merged.set(key, next)
      return null
    }
    this.merged.delete(key)
    return before ? JSON.stringify(next) : json
  }

  private mark(i: number): void {
    const byte = i >> 3
    if (byte >= this.replaced.length) {
      const grown = new Uint8Array(Math.max(byte + 1, this.replaced.length * 2))
      grown.set(this.replaced)
      this.replaced = grown
    }
    this.replaced[byte] = (this.replaced[byte] as number) | (1 << (i & 7))
  }

  private isReplaced(i: number): boolean {
    const byte = this.replaced[i >> 3]
    return byte !== undefined && (byte & (1 << (i & 7))) !== 0
  }
}
