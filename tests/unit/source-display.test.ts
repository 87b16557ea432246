import { describe, expect, it } from 'vitest'
import {
  sourceDisplay,
  sourceLabel,
  sourceLifecycle,
} from '../../src/shared/source-display.ts'

const source = (
  state: string,
  deleted_at: string | null = null,
  target_electric_url: string | null = null,
) => ({ state, deleted_at, target_electric_url })

const DELETED = '2024-05-01T10:00:00.000Z'
const TARGET = 'https://electric.example.com'

describe('sourceDisplay: deleted sources', () => {
  it('shows delete_failed in red when deletion failed', () => {
    expect(sourceDisplay(source('delete_failed', DELETED))).toEqual({
      state: 'delete_failed',
      color: 'red',
    })
  })

  it('shows an errored deleted source as delete_failed', () => {
    expect(sourceDisplay(source('error', DELETED))).toEqual({
      state: 'delete_failed',
      color: 'red',
    })
  })

  it('shows stopping in violet', () => {
    expect(sourceDisplay(source('stopping', DELETED))).toEqual({
      state: 'stopping',
      color: 'violet',
    })
  })

  it('shows any other state as cleanup_requested in amber', () => {
    expect(sourceDisplay(source('active', DELETED))).toEqual({
      state: 'cleanup_requested',
      color: 'amber',
    })
  })

  it('lets deletion win over a transfer', () => {
    expect(sourceDisplay(source('transferring', DELETED, TARGET)).state).toBe(
      'cleanup_requested',
    )
  })
})

describe('sourceDisplay: sources being transferred', () => {
  it.each(['preparing_transfer', 'transferring'])(
    'shows %s as it is, in amber',
    (state) => {
      expect(sourceDisplay(source(state, null, TARGET))).toEqual({
        state,
        color: 'amber',
      })
    },
  )

  it('shows any other state as transfer_requested in amber', () => {
    expect(sourceDisplay(source('active', null, TARGET))).toEqual({
      state: 'transfer_requested',
      color: 'amber',
    })
  })
})

describe('sourceDisplay: the raw state otherwise', () => {
  it('shows active in green', () => {
    expect(sourceDisplay(source('active'))).toEqual({
      state: 'active',
      color: 'green',
    })
  })

  it('shows error in red', () => {
    expect(sourceDisplay(source('error'))).toEqual({
      state: 'error',
      color: 'red',
    })
  })

  it.each(['reconnecting', 'initializing', 'waiting'])(
    'shows %s in amber',
    (state) => {
      expect(sourceDisplay(source(state))).toEqual({ state, color: 'amber' })
    },
  )

  it('shows an undeleted stopping source in violet', () => {
    expect(sourceDisplay(source('stopping'))).toEqual({
      state: 'stopping',
      color: 'violet',
    })
  })

  it('gives a state without a colour of its own no colour', () => {
    expect(sourceDisplay(source('paused'))).toEqual({
      state: 'paused',
      color: null,
    })
  })
})

describe('sourceLifecycle', () => {
  it('is live while deleted_at is not set, whatever the state', () => {
    expect(sourceLifecycle(source('error'))).toBe('live')
  })

  it.each(['error', 'delete_failed'])(
    'has a failed deletion when deleted with state %s',
    (state) => {
      expect(sourceLifecycle(source(state, DELETED))).toBe('deletion_failed')
    },
  )

  it.each(['active', 'stopping'])(
    'has a pending deletion when deleted with state %s',
    (state) => {
      expect(sourceLifecycle(source(state, DELETED))).toBe('deletion_pending')
    },
  )
})

describe('sourceLabel', () => {
  const id = '00000000-0000-4000-8000-000000000001'
  it('is the name, or the id when the source has none', () => {
    expect(sourceLabel({ id, name: 'Orders' })).toBe('Orders')
    expect(sourceLabel({ id, name: null })).toBe(id)
    // Written before names were checked, or by hand: never an empty title.
    expect(sourceLabel({ id, name: '' })).toBe(id)
  })
})
