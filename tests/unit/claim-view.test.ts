// The claim page's pure decisions: what an answer shows, when it is polled again, where the
// sign-in links go, and how each failed claim reads.
import { describe, expect, it } from 'vitest'
import { claimErrorMessage } from '../../src/app/features/claim/claim-api.ts'
import {
  claimView,
  keepPolling,
  signInHref,
} from '../../src/app/features/claim/claim-view.ts'
import { ApiError } from '../../src/app/lib/api.ts'
import {
  CLAIM_MESSAGES,
  type ClaimableSource,
} from '../../src/shared/claimable-sources.ts'

const answer = (state: ClaimableSource['state']): ClaimableSource => ({
  state,
  message: `it is ${state}`,
  source: { source_id: '00000000-0000-4000-8000-000000000001' },
})

describe('the claim view', () => {
  it('is claimable only while pending or ready, and polls only then', () => {
    expect(claimView(undefined)).toEqual({ kind: 'loading' })
    expect(claimView(null)).toEqual({ kind: 'not-claimable', reason: null })
    expect(claimView(answer('pending'))).toMatchObject({
      kind: 'claimable',
      ready: false,
    })
    expect(claimView(answer('ready'))).toMatchObject({
      kind: 'claimable',
      ready: true,
    })
    expect(claimView(answer('failed'))).toEqual({
      kind: 'not-claimable',
      reason: 'it is failed',
    })
    expect(claimView(answer('claimed'))).toEqual({
      kind: 'not-claimable',
      reason: null,
    })
    expect(
      (['pending', 'ready', 'failed', 'claimed'] as const).map((s) =>
        keepPolling(answer(s)),
      ),
    ).toEqual([true, true, false, false])
    expect(keepPolling(null)).toBe(false)
  })

  it('signs in with the claim carried along', () => {
    expect(signInHref('github', 'abc')).toBe(
      '/api/public/auth/github/login?claim=abc',
    )
    expect(signInHref('google', 'abc')).toBe(
      '/api/public/auth/google/login?claim=abc',
    )
  })
})

describe('a failed claim', () => {
  it("reads as the claim page's fixed texts", () => {
    expect(claimErrorMessage(new TypeError('Failed to fetch'))).toBe(
      CLAIM_MESSAGES.network,
    )
    expect(claimErrorMessage(new ApiError(401, 'x'))).toBe(
      CLAIM_MESSAGES.signedOut,
    )
    expect(
      claimErrorMessage(new ApiError(404, CLAIM_MESSAGES.notClaimable)),
    ).toBe(CLAIM_MESSAGES.notClaimable)
    expect(claimErrorMessage(new ApiError(409, CLAIM_MESSAGES.notReady))).toBe(
      CLAIM_MESSAGES.notReady,
    )
    expect(claimErrorMessage(new ApiError(409, 'This team is full.'))).toBe(
      'This team is full.',
    )
    expect(claimErrorMessage(new ApiError(404, 'Team not found'))).toBe(
      CLAIM_MESSAGES.failed,
    )
    expect(claimErrorMessage(new ApiError(500, 'boom'))).toBe(
      CLAIM_MESSAGES.failed,
    )
  })
})
