import { describe, expect, it } from 'vitest'
import { ShapeRouter } from '../../src/engine/shapes/router.ts'

describe('ShapeRouter', () => {
  const router = new ShapeRouter<string>()
  router.add('team-1', 'public.items', [{ column: 'team_id', value: '1' }])
  router.add('team-2', 'public.items', [{ column: 'team_id', value: '2' }])
  router.add('like', 'public.items', [])
  router.add('other-table', 'public.other', [])

  it('finds indexed shapes by value and always includes unindexed ones', () => {
    expect(
      [...router.candidates('public.items', [{ team_id: '1' }])].sort(),
    ).toEqual(['like', 'team-1'])
    expect([...router.candidates('public.items', [{ team_id: '3' }])]).toEqual([
      'like',
    ])
  })

  it('looks at the old and the new row of an update (rows moving between shapes)', () => {
    const found = router.candidates('public.items', [
      { team_id: '1' },
      { team_id: '2' },
    ])
    expect([...found].sort()).toEqual(['like', 'team-1', 'team-2'])
  })

  it('ignores NULLs, which no equality matches', () => {
    expect([...router.candidates('public.items', [{ team_id: null }])]).toEqual(
      ['like'],
    )
  })

  it('forgets removed shapes and empty tables', () => {
    const r = new ShapeRouter<string>()
    r.add('a', 't', [{ column: 'x', value: '1' }])
    r.remove('a')
    expect(r.hasTable('t')).toBe(false)
    expect(r.candidates('t', [{ x: '1' }]).size).toBe(0)
  })

  it('files many shapes under one value, and forgets them one by one', () => {
    const r = new ShapeRouter<string>()
    const found = () => [...r.candidates('t', [{ x: '1' }])].sort()
    r.add('a', 't', [{ column: 'x', value: '1' }])
    expect(found()).toEqual(['a'])
    r.add('b', 't', [{ column: 'x', value: '1' }])
    r.add('c', 't', [{ column: 'x', value: '1' }])
    expect(found()).toEqual(['a', 'b', 'c'])
    r.remove('b')
    expect(found()).toEqual(['a', 'c'])
    r.remove('a')
    expect(found()).toEqual(['c'])
    r.add('d', 't', [{ column: 'x', value: '1' }])
    expect(found()).toEqual(['c', 'd'])
    r.remove('c')
    r.remove('d')
    expect(found()).toEqual([])
    expect(r.hasTable('t')).toBe(false)
  })

  it('finds a shape by values that change (a subquery’s result), and forgets it whole', () => {
    const r = new ShapeRouter<string>()
    r.addByValues('sub', 't', 'project_id')
    r.add('other', 't', [{ column: 'project_id', value: '1' }])
    expect([...r.candidates('t', [{ project_id: '1' }])]).toEqual(['other'])
    r.fileValue('sub', '1')
    r.fileValue('sub', '2')
    expect([...r.candidates('t', [{ project_id: '1' }])].sort()).toEqual([
      'other',
      'sub',
    ])
    expect([...r.candidates('t', [{ project_id: '2' }])]).toEqual(['sub'])
    r.unfileValue('sub', '2')
    expect(r.candidates('t', [{ project_id: '2' }]).size).toBe(0)
    // The other shape leaving takes the table's routes with it; filing again brings them back.
    r.remove('other')
    r.unfileValue('sub', '1')
    expect(r.hasTable('t')).toBe(false)
    r.fileValue('sub', '3')
    expect([...r.candidates('t', [{ project_id: '3' }])]).toEqual(['sub'])
    r.remove('sub')
    expect(r.hasTable('t')).toBe(false)
  })
})
