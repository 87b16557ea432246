// A long-poll the engine's own listener (node-listener.ts) holds while its shape has nothing
// new: one small object parked on the shape, holding the response, the shape, and what the
// answer needs. Awaited instead, a waiting request kept its whole chain alive: the parsed query
// and definition, three suspended async functions, their promises, a closure, a once-listener.
// At 10,000 live shapes all 10,000 long-polls wait at once, each for about a second, so every
// one of them outlived two young collections and was promoted, and old-generation collections
// came every few seconds (bench:engine --shapes 10000 --heap-profile, --trace-gc). Their
// timeouts share one timer (PollClock, below).
import type { ServerResponse } from 'node:http'
import { compareOffsets, type Offset } from '../shapes/offset.ts'
import type { Shape, Waiter } from '../shapes/shape.ts'

/** Where a poll's answer goes (node-listener.ts): written, or a failure answered as one. */
export type Holder<A> = {
  deliver(response: ServerResponse, answer: A): void
  fail(response: ServerResponse, error: unknown): void
}

export class ParkedPoll<C, A> implements Waiter {
  private response: ServerResponse | null = null
  private holder: Holder<A> | null = null
  /** Its place in the clock's list (below), by deadline. */
  deadline = 0
  prev: ParkedPoll<C, A> | null = null
  next: ParkedPoll<C, A> | null = null

  /**
   * `seen`: the shape's published end when the request found nothing after its offset;
   * `resume` makes the answer when the shape changes or the poll times out.
   */
  constructor(
    private readonly shape: Shape,
    private readonly seen: Offset,
    private readonly timeoutMs: number,
    private readonly context: C,
    private readonly resume: (shape: Shape, context: C) => A,
  ) {}

  /** Waits on the shape for `response`; answers at once if it changed meanwhile. */
  hold(response: ServerResponse, holder: Holder<A>): void {
    this.response = response
    this.holder = holder
    // Published between the request's read and now (a microtask of the transaction that
    // applied it may have run): no publish is coming to wake it.
    if (
      this.shape.failure ||
      compareOffsets(this.shape.lastOffset, this.seen) !== 0
    ) {
      this.wake()
      return
    }
    this.shape.park(this)
    clock.add(this, performance.now() + this.timeoutMs)
    response.on('close', () => this.leave())
  }

  /** The shape changed or ended, or the time is up: answered, never throwing. */
  wake(): void {
    const { response, holder } = this
    if (!response || !holder) return
    this.release()
    if (response.destroyed) return
    let answer: A
    try {
      answer = this.resume(this.shape, this.context)
    } catch (error) {
      holder.fail(response, error)
      return
    }
    holder.deliver(response, answer)
  }

  /** The client went away (or the answer is sent: then nothing is parked any more). */
  private leave(): void {
    if (this.response) this.release()
  }

  private release(): void {
    this.response = null
    this.holder = null
    this.shape.unpark(this)
    clock.remove(this)
  }
}

type Timed = {
  deadline: number
  prev: Timed | null
  next: Timed | null
  wake(): void
}

/**
 * The parked polls in the order their time runs out, under one timer: a Timeout and its
 * arguments for each of 10,000 waiting polls were among what young collections copied. The
 * polls of a listener share one timeout, so a new one goes at the end; another listener's
 * shorter one walks back to its place.
 */
class PollClock {
  private first: Timed | null = null
  private last: Timed | null = null
  private timer: ReturnType<typeof setTimeout> | null = null
  private timerAt = Infinity

  add(poll: Timed, deadline: number): void {
    poll.deadline = deadline
    let before = this.last
    while (before && before.deadline > deadline) before = before.prev
    poll.prev = before
    poll.next = before ? before.next : this.first
    if (poll.next) poll.next.prev = poll
    else this.last = poll
    if (before) before.next = poll
    else this.first = poll
    if (deadline < this.timerAt) this.arm(deadline)
  }

  /** Out of the list (woken, or its client gone); a no-op if it is not in it. */
  remove(poll: Timed): void {
    if (poll.prev) poll.prev.next = poll.next
    else if (this.first === poll) this.first = poll.next
    else return
    if (poll.next) poll.next.prev = poll.prev
    else this.last = poll.prev
    poll.prev = poll.next = null
    // Nothing left to time out: no timer holds the process up.
    if (!this.first && this.timer) {
      clearTimeout(this.timer)
      this.timer = null
      this.timerAt = Infinity
    }
  }

  private arm(at: number): void {
    if (this.timer) clearTimeout(this.timer)
    this.timerAt = at
    this.timer = setTimeout(
      () => this.expire(),
      Math.max(0, at - performance.now()),
    )
  }

  private expire(): void {
    this.timer = null
    this.timerAt = Infinity
    const now = performance.now()
    while (this.first && this.first.deadline <= now) {
      const due = this.first
      this.remove(due)
      due.wake()
    }
    if (this.first) this.arm(this.first.deadline)
  }
}

const clock = new PollClock()
