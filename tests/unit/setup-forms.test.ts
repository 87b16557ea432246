// When a setup form can no longer be used, as the server refuses it and the page
// and team list say it: deleted before used before expired; the create call's defaults.
import { describe, expect, it } from 'vitest'
import {
  createSetupFormRequestSchema,
  setupFormUnusable,
} from '../../src/shared/setup-forms.ts'

const now = Date.parse('2026-11-24T12:00:00Z')
const usable = {
  deleted_at: null,
  used_at: null,
  expires_at: '2026-11-25T12:00:00Z',
}

describe('setupFormUnusable', () => {
  it('reads a form as usable until it is deleted, used or past its expiry', () => {
    expect(setupFormUnusable(usable, now)).toBeNull()
    expect(
      setupFormUnusable({ ...usable, expires_at: '2026-11-24T12:00:00Z' }, now),
    ).toBe('expired')
    expect(
      setupFormUnusable({ ...usable, used_at: '2026-11-24T11:00:00Z' }, now),
    ).toBe('used')
    expect(
      setupFormUnusable(
        {
          deleted_at: '2026-11-24T11:30:00Z',
          used_at: '2026-11-24T11:00:00Z',
          expires_at: '2026-11-01T00:00:00Z',
        },
        now,
      ),
    ).toBe('deleted')
    expect(
      setupFormUnusable(
        {
          ...usable,
          used_at: '2026-11-24T11:00:00Z',
          expires_at: '2026-11-01T00:00:00Z',
        },
        now,
      ),
    ).toBe('used')
  })
})

describe('createSetupFormRequestSchema', () => {
  it('lasts 7 days by default and at most 30, with an optional selectable region', () => {
    expect(createSetupFormRequestSchema.parse({})).toEqual({
      expires_in_days: 7,
    })
    expect(
      createSetupFormRequestSchema.parse({
        region: 'us-east-1',
        expires_in_days: 30,
      }),
    ).toEqual({ region: 'us-east-1', expires_in_days: 30 })
    for (const bad of [
      { expires_in_days: 31 },
      { expires_in_days: 0 },
      { expires_in_days: 2.5 },
      { region: 'ca-west-1' },
      { other: 1 },
    ])
      expect(createSetupFormRequestSchema.safeParse(bad).success).toBe(false)
  })
})
