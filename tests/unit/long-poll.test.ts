// Parked long-polls' timeouts under one timer (http/long-poll.ts): each answered at its own
// time whatever order they were parked in, a poll whose client left never answered, and a
// change answers a poll at once.
import { EventEmitter } from 'node:events'
import type { ServerResponse } from 'node:http'
import { expect, it } from 'vitest'
import { ParkedPoll, type Holder } from '../../src/engine/http/long-poll.ts'
import type { Offset } from '../../src/engine/shapes/offset.ts'
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

it('answers each poll at its own timeout, in deadline order, and never one whose client left', async () => {
  const { shape, waiters } = fakeShape()
  const answered: string[] = []
  const holder: Holder<string> = {
    deliver: (_response, answer) => answered.push(answer),
    fail: (_response, error) => {
      throw error
    },
  }
  const park = (name: string, timeoutMs: number) => {
    const response = fakeResponse()
    new ParkedPoll(shape, END, timeoutMs, name, (_s, n) => n).hold(
      response,
      holder,
    )
    return response
  }
  park('slow', 90)
  park('fast', 10)
  const gone = park('gone', 20)
  park('middle', 40)
  gone.emit('close')
  expect(waiters.size).toBe(3)
  await expect.poll(() => answered.length).toBe(3)
  expect(answered).toEqual(['fast', 'middle', 'slow'])
  expect(waiters.size).toBe(0)
})

it('answers a poll when its shape changes, once, and not again at its timeout', async () => {
  const { shape, waiters } = fakeShape()
  const answered: string[] = []
  const holder: Holder<string> = {
    deliver: (_response, answer) => answered.push(answer),
    fail: () => {},
  }
  new ParkedPoll(shape, END, 30, 'woken', (_s, n) => n).hold(
    fakeResponse(),
    holder,
  )
  new ParkedPoll(shape, END, 60, 'timed out', (_s, n) => n).hold(
    fakeResponse(),
    holder,
  )
  const [first] = [...waiters]
  first?.wake()
  expect(answered).toEqual(['woken'])
  await expect.poll(() => answered.length).toBe(2)
  expect(answered).toEqual(['woken', 'timed out'])
})

it('a poll whose answer throws is failed, and the others still time out', async () => {
  const { shape } = fakeShape()
  const answered: string[] = []
  const failed: unknown[] = []
  const holder: Holder<string> = {
    deliver: (_response, answer) => answered.push(answer),
    fail: (_response, error) => failed.push(error),
  }
  new ParkedPoll(shape, END, 10, 'broken', () => {
    throw new Error('no answer')
  }).hold(fakeResponse(), holder)
  new ParkedPoll(shape, END, 10, 'fine', (_s, n) => n).hold(
    fakeResponse(),
    holder,
  )
  await expect.poll(() => answered.length + failed.length).toBe(2)
  expect(answered).toEqual(['fine'])
  expect(failed).toHaveLength(1)
})
