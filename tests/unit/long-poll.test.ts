// A parked long-poll (http/long-poll.ts): answered at its timeout or when its shape changes,
// once; never when its client left; and a poll whose answer throws is failed without stopping
// a wake-up pass over the others.
import { EventEmitter } from 'node:events'
import type { ServerResponse } from 'node:http'
import { expect, it } from 'vitest'
import { ParkedPoll, type Holder } from '../../src/engine/http/long-poll.ts'
import type { Offset } from '../../src/engine/storage/offset.ts'
import type { Shape, Waiter } from '../../src/engine/shapes/shape.ts'

const END: Offset = { tx: 1n, op: 0 }

/** What a poll needs of a shape: its waiters, its end, its failure. */
function fakeShape() {
  const waiters = new Set<Waiter>()
  const shape = {
    failure: null,
    lastOffset: END,
    park: (w: Waiter) => waiters.add(w),
    unpark: (w: Waiter) => waiters.delete(w),
  }
  return { shape: shape as unknown as Shape, waiters }
}

function fakeResponse() {
  const response = Object.assign(new EventEmitter(), { destroyed: false })
  return response as unknown as ServerResponse & EventEmitter
}

function recorder() {
  const answered: string[] = []
  const failed: unknown[] = []
  const holder: Holder<string> = {
    deliver: (_response, answer) => answered.push(answer),
    fail: (_response, error) => failed.push(error),
  }
  return { answered, failed, holder }
}

it('answers a poll at its timeout, and never one whose client left', async () => {
  const { shape, waiters } = fakeShape()
  const { answered, holder } = recorder()
  new ParkedPoll(shape, END, 10, 'timed out', (_s, n) => n).hold(
    fakeResponse(),
    holder,
  )
  const gone = fakeResponse()
  new ParkedPoll(shape, END, 10, 'gone', (_s, n) => n).hold(gone, holder)
  gone.emit('close')
  expect(waiters.size).toBe(1)
  await expect.poll(() => answered).toEqual(['timed out'])
  expect(waiters.size).toBe(0)
})

it('answers a poll when its shape changes, once, and not again at its timeout', async () => {
  const { shape, waiters } = fakeShape()
  const { answered, holder } = recorder()
  new ParkedPoll(shape, END, 20, 'woken', (_s, n) => n).hold(
    fakeResponse(),
    holder,
  )
  new ParkedPoll(shape, END, 40, 'timed out', (_s, n) => n).hold(
    fakeResponse(),
    holder,
  )
  const [first] = [...waiters]
  first?.wake()
  expect(answered).toEqual(['woken'])
  await expect.poll(() => answered).toEqual(['woken', 'timed out'])
})

it('a poll whose answer throws is failed, and a wake-up goes on to the others', () => {
  const { shape, waiters } = fakeShape()
  const { answered, failed, holder } = recorder()
  new ParkedPoll(shape, END, 60_000, 'broken', () => {
    throw new Error('no answer')
  }).hold(fakeResponse(), holder)
  new ParkedPoll(shape, END, 60_000, 'fine', (_s, n) => n).hold(
    fakeResponse(),
    holder,
  )
  // As Shape.wake does: every waiter in turn.
  for (const waiter of [...waiters]) waiter.wake()
  expect(answered).toEqual(['fine'])
  expect(failed).toHaveLength(1)
})

it('answers polls of different timeouts each at its own, on one clock, and not one removed', async () => {
  const { shape, waiters } = fakeShape()
  const { answered, holder } = recorder()
  const started = Date.now()
  const at = new Map<string, number>()
  const timed: Holder<string> = {
    deliver: (response, answer) => {
      at.set(answer, Date.now() - started)
      holder.deliver(response, answer)
    },
    fail: holder.fail,
  }
  // The later one first: the clock, armed for it, must be armed again for the earlier.
  new ParkedPoll(shape, END, 300, 'late', (_s, n) => n).hold(
    fakeResponse(),
    timed,
  )
  new ParkedPoll(shape, END, 30, 'early', (_s, n) => n).hold(
    fakeResponse(),
    timed,
  )
  const left = fakeResponse()
  new ParkedPoll(shape, END, 30, 'left', (_s, n) => n).hold(left, timed)
  left.emit('close')
  await expect.poll(() => answered).toEqual(['early', 'late'])
  expect(at.get('early')).toBeGreaterThanOrEqual(30)
  expect(at.get('early')).toBeLessThan(300)
  expect(at.get('late')).toBeGreaterThanOrEqual(300)
  expect(waiters.size).toBe(0)
})
