// One clock for every parked long-poll's timeout, not a timer each. A Timeout per poll lived as
// long as its poll: at 10,000 live shapes each poll waits seconds, so every one of them was
// promoted, 17 MB of the 330 MB the engine promoted in 30 s (bench:engine --only shape-cost
// --heap-profile). Polls due within the same few milliseconds share a slot, and one timer is
// armed for the earliest slot; a poll is answered at most SLOT_MS after its timeout.

const SLOT_MS = 25

type Due = { wake(): void }

class PollDeadlines {
  private slots = new Map<number, Set<Due>>()
  /** The slots' numbers, in order (most polls share one timeout, so new slots go last). */
  private order: number[] = []
  private timer: ReturnType<typeof setTimeout> | null = null
  private armedFor = Infinity

  /** Wakes `poll` at `due` (ms since the epoch) unless removed first; its slot's number. */
  add(poll: Due, due: number): number {
    const slot = Math.ceil(due / SLOT_MS)
    let polls = this.slots.get(slot)
    if (!polls) {
      polls = new Set()
      this.slots.set(slot, polls)
      this.insert(slot)
    }
    polls.add(poll)
    this.arm()
    return slot
  }

  remove(poll: Due, slot: number): void {
    const polls = this.slots.get(slot)
    if (!polls) return
    polls.delete(poll)
    // An empty slot stays until its time: the timer armed for it then finds nothing to do.
  }

  private insert(slot: number): void {
    let i = this.order.length
    while (i > 0 && (this.order[i - 1] as number) > slot) i--
    this.order.splice(i, 0, slot)
  }

  private arm(): void {
    const next = this.order[0]
    if (next === undefined || next >= this.armedFor) return
    if (this.timer) clearTimeout(this.timer)
    this.armedFor = next
    // Unref'd: a slot whose polls all left stays armed until its time, and a deadline alone must
    // not keep a process from exiting (the polls' own sockets keep a serving one alive).
    this.timer = setTimeout(
      () => this.fire(),
      Math.max(0, next * SLOT_MS - Date.now()),
    ).unref()
  }

  private fire(): void {
    this.timer = null
    this.armedFor = Infinity
    const now = Date.now()
    while (
      this.order.length > 0 &&
      (this.order[0] as number) * SLOT_MS <= now
    ) {
      const slot = this.order.shift() as number
      const polls = this.slots.get(slot)
      this.slots.delete(slot)
      // Each answered on its own: wake() never throws (long-poll.ts).
      for (const poll of polls ?? []) poll.wake()
    }
    this.arm()
  }
}

export const deadlines = new PollDeadlines()
