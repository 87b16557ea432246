// Registering a claimable source: the URL guard and readiness check as for any source
// (create-checks.ts), then a team-less source and its claim row in one transaction, within the
// cap on sources waiting to be claimed (and, for the public API, its shares per client address
// and per database). The public API and the admin tool both create here.
import { randomUUID } from 'node:crypto'
import type { Region } from '../../shared/sources.ts'
import {
  fullUnclaimedCap,
  insertClaim,
  UnclaimedCapError,
  type UnclaimedCaps,
} from './claimable-sources.ts'
import type { Db } from '../platform/db/database.ts'
import {
  checkSourceReady,
  guardSourceUrl,
  type CheckSettings,
} from '../sources/create/create-checks.ts'
import { createSource } from '../sources/create/create-source.ts'

export type NewClaimable = {
  databaseUrl: string
  region: Region
  claimLink: string | null
}

export type ClaimableSettings = {
  checks: CheckSettings
  instanceId: string
  /** Sources that may wait to be claimed at once (env MAX_UNCLAIMED_SOURCES). */
  maxUnclaimed: number
  /** The public API's shares of that cap: per client address and per database. */
  shares?: Omit<UnclaimedCaps, 'max'>
}

export type ClaimableOutcome =
  | { kind: 'created'; claimId: string; sourceId: string }
  /** The URL, its host or the database was refused; the message says why (no password). */
  | { kind: 'refused'; message: string }
  | { kind: 'full' }
  /** A share of the cap is full: the message says which; retry once the first one expires. */
  | { kind: 'limited'; message: string; retryAfterSeconds: number }

export const UNCLAIMED_FULL_MESSAGE =
  'Too many sources are waiting to be claimed right now. Please try again later.'

function capOutcome(
  { share }: UnclaimedCapError,
  caps: UnclaimedCaps,
): ClaimableOutcome {
  if (!share) return { kind: 'full' }
  const message =
    share.kind === 'ip'
      ? 'Too many sources created from this address are waiting to be claimed; claim them, or try again once they expire.'
      : `This database already has ${caps.perDatabase} sources waiting to be claimed; claim them, or try again once they expire.`
  return {
    kind: 'limited',
    message,
    retryAfterSeconds: share.retryAfterSeconds,
  }
}

export async function createClaimableSource(
  db: Db,
  key: Buffer,
  source: NewClaimable,
  settings: ClaimableSettings,
): Promise<ClaimableOutcome> {
  const caps: UnclaimedCaps = { max: settings.maxUnclaimed, ...settings.shares }
  // Before any connection: a client at its share (or a full cap) costs no login to the database.
  const early = await fullUnclaimedCap(db, caps, null)
  if (early) return capOutcome(early, caps)
  let checked = await guardSourceUrl(source.databaseUrl, settings.checks)
  if (checked.ok)
    checked = await checkSourceReady(
      checked.address,
      source.databaseUrl,
      settings.checks,
    )
  if (!checked.ok) return { kind: 'refused', message: checked.message }

  const claimId = randomUUID()
  try {
    const outcome = await createSource(
      db,
      key,
      {
        teamId: null,
        name: null,
        region: source.region,
        address: checked.address,
        instanceId: settings.instanceId,
        // Not read for a source with no team: a team's maximum applies when it is claimed.
        maxPerTeam: 0,
      },
      (client, written) =>
        insertClaim(
          client,
          {
            id: claimId,
            sourceId: written.id,
            claimLink: source.claimLink,
            databaseKey: checked.address.databaseKey,
          },
          caps,
        ),
    )
    // A team-less create always writes a new row.
    if (outcome.kind !== 'created')
      throw new Error(`claimable create answered ${outcome.kind}`)
    return { kind: 'created', claimId, sourceId: outcome.id }
  } catch (error) {
    if (error instanceof UnclaimedCapError) return capOutcome(error, caps)
    throw error
  }
}
