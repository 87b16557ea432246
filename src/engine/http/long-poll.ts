// A long-poll the engine's own listener (node-listener.ts) holds while its shape has nothing
// new: one small object parked on the shape, holding the response, the shape, and what the
// answer needs. Awaited instead, a waiting request kept its whole chain alive: the parsed query
// and definition, three suspended async functions, their promises, a closure, a once-listener.
// At 10,000 live shapes all 10,000 long-polls wait at once, each for about a second, so every
// one of them outlived two young collections and was promoted, and old-generation collections
// came every few seconds (bench:engine --shapes 10000 --heap-profile, --trace-gc).
import type { ServerResponse } from 'node:http'
import { compareOffsets, type Offset } from '../storage/offset.ts'
import type { Shape, Waiter } from '../shapes/shape.ts'
import { deadlines } from './poll-deadlines.ts'

/** Where a poll's answer goes (node-listener.ts): written, or a failure answered as one. */
export type Holder<A> = {
  deliver(response: ServerResponse, answer: A): void
  fail(response: ServerResponse, error: unknown): void
}

export class ParkedPoll<C, A> implements Waiter {
  private response: ServerResponse | null = null
  private holder: Holder<A> | null = null
  /** Its place on the deadline clock (poll-deadlines.ts), null when not on it. */
  private slot: number | null = null
  /** When its timeout answers it (Waiter: one still parked well after is stalled). */
  due = Infinity

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
    this.due = Date.now() + this.timeoutMs
    this.shape.park(this)
    this.slot = deadlines.add(this, this.due)
    response.on('close', () => this.leave())
  }

  /**
   * The shape changed or ended, or the time is up: answered, never throwing, so a wake-up
   * pass goes on to the other polls.
   */
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
    if (this.slot !== null) deadlines.remove(this, this.slot)
    this.slot = null
  }
}
