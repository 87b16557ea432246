// Claimable sources (the /claim page and /api/public/v1/claimable-sources): a source a starter
// script registers with no account, which its developer then claims into one of their teams. The
// calls' bodies and answers, the page's texts and timings, named once for the server and the app.
import { z } from 'zod'
import { idSchema } from './entities.ts'
import { regionSchema } from './sources.ts'
import { databaseUrlSchema } from './validation.ts'

export const CLAIMABLE_SOURCES_PATH = '/api/public/v1/claimable-sources'
export const CLAIM_PATH = `${CLAIMABLE_SOURCES_PATH}/claim`
export const claimableSourcePath = (claimId: string) =>
  `${CLAIMABLE_SOURCES_PATH}/${encodeURIComponent(claimId)}`

/** The claim page polls this often while pending or ready, and redirects this long after a
 * claim. */
export const CLAIM_POLL_MS = 5_000
export const CLAIM_REDIRECT_MS = 2_000

const CLAIM_LINK_MAX_LENGTH = 2048

export const claimLinkSchema = z
  .url({ protocol: /^https$/, error: 'claim_link must be an https URL' })
  .max(
    CLAIM_LINK_MAX_LENGTH,
    `claim_link must be at most ${CLAIM_LINK_MAX_LENGTH} characters`,
  )

/**
 * POST /api/public/v1/claimable-sources, answered 201 `{claimId}`; region defaults to us-east-1
 * (the wizard's default). The source is removed 72 hours after creation unless claimed
 * (migration 0009's expires_at).
 */
export const createClaimableSourceRequestSchema = z.object({
  database_url: databaseUrlSchema.trim().min(1, 'A database URL is required'),
  region: regionSchema.default('us-east-1'),
  claim_link: claimLinkSchema.optional(),
})
/**
 * `pending` until the source is active, then `ready`; `failed` (with the reason) when it went
 * into error; `claimed` once claimed (then without the secret). Only `pending` and `ready` are
 * claimable states: any other value is treated as not claimable.
 */
const CLAIM_STATES = ['pending', 'ready', 'failed', 'claimed'] as const

export const claimableSourceSchema = z.object({
  state: z.enum(CLAIM_STATES),
  message: z.string(),
  source: z.object({
    source_id: idSchema,
    secret: z.string().optional(),
  }),
  claim_link: z.string().optional(),
})
export type ClaimableSource = z.infer<typeof claimableSourceSchema>

/** POST /api/public/v1/claimable-sources/claim */
export const claimRequestSchema = z.object({
  claimId: idSchema,
  teamId: idSchema,
})

export const claimResponseSchema = z.object({
  source_id: idSchema,
  team_id: idSchema,
  txid: z.number().int(),
})

/** The texts the page and the API both use, word for word (tests assert them). */
export const CLAIM_MESSAGES = {
  failed: 'Failed to claim source. Please try again.',
  network: 'Network error. Please try again.',
  notClaimable: 'This source is not claimable or does not exist.',
  notReady:
    'This source is not ready to be claimed yet. Please try again later.',
  signedOut: 'You must be signed in to claim a source.',
  noId: 'No source ID provided. Please check if your claim link is correct',
  claimed: 'Source successfully claimed',
} as const

/** The claim page's address for a claim id (the sign-in redirects and the admin tool print it). */
export const claimPagePath = (claimId: string) =>
  `/claim?uuid=${encodeURIComponent(claimId)}`
