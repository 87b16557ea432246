// The cap on shapes (shapes/expiry.ts): a pass removes only the excess, least recently read
// first (by creation when never read), never a shape still taking its snapshot, and nothing
// while replication is not active.
import { expect, it } from 'vitest'
import {
  leastRecentlyUsed,
  ShapeExpiry,
  type Expirable,
} from '../../src/engine/shapes/expiry.ts'

type Fake = Expirable & { name: string }

const shape = (
  name: string,
  lastReadAt: number | null,
  createdAt = 0,
  ready = true,
): Fake => ({ name, lastReadAt, createdAt, ready })

it('picks the least recently read, a never-read shape by its creation', () => {
  const shapes = [
    shape('read-late', 500),
    shape('read-early', 100),
    shape('never-read-old', null, 50),
    shape('never-read-new', null, 900),
  ]
  expect(leastRecentlyUsed(shapes, 2).map((s) => s.name)).toEqual([
    'never-read-old',
    'read-early',
  ])
  expect(leastRecentlyUsed(shapes, 0)).toEqual([])
  expect(leastRecentlyUsed(shapes, 10)).toHaveLength(4)
})

it('passes over a new shape not read yet: its first answer may be on its way', () => {
  const shapes = [
    shape('new-unread', null, 1_000),
    shape('reopened-unread', null, 10),
    shape('read', 500),
  ]
  expect(leastRecentlyUsed(shapes, 3, 900).map((s) => s.name)).toEqual([
    'reopened-unread',
    'read',
  ])
})

it('never picks a shape still taking its snapshot', () => {
  const shapes = [shape('snapshotting', null, 0, false), shape('ready', 10)]
  expect(leastRecentlyUsed(shapes, 1).map((s) => s.name)).toEqual(['ready'])
})

function cap(shapes: Fake[], maxShapes: number, active = true) {
  const removed: string[] = []
  const expiry = new ShapeExpiry<Fake>({
    maxShapes,
    shapes: () => ({ size: shapes.length, values: () => shapes }),
    active: () => active,
    remove: (s) => {
      removed.push(s.name)
      shapes.splice(shapes.indexOf(s), 1)
    },
  })
  return { expiry, removed }
}

it('removes only what is over the cap', () => {
  const shapes = [shape('a', 3), shape('b', 1), shape('c', 2), shape('d', 4)]
  const { expiry, removed } = cap(shapes, 2)
  expect(expiry.pass()).toBe(2)
  expect(removed).toEqual(['b', 'c'])
  expect(expiry.pass()).toBe(0)
  expect(shapes.map((s) => s.name)).toEqual(['a', 'd'])
})

it('removes nothing while replication is not active (shapes may still be reopening)', () => {
  const { expiry, removed } = cap([shape('a', 1), shape('b', 2)], 1, false)
  expect(expiry.pass()).toBe(0)
  expect(removed).toEqual([])
})
