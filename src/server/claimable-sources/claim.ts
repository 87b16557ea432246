// Claiming a claimable source into a team: one transaction that moves the source's row into the
// team (its team_id changes, so the team's `sources` shape sees it arrive) with a new secret, and
// marks the claim taken. The secret the claim link handed out (to the starter script, and to
// anyone who read the link) must not open the team's source: apps use the one the team sees.
// The claim row is locked FOR UPDATE first, so two claims of one source, at once or one after
// the other, move it once; then the team row, as a create locks it (create-source.ts), so the
// team's existing-database rule and its maximum hold. Creates never lock claim rows, so the two
// orders cannot deadlock.
import { SOURCE_EVENTS } from '../../shared/sources.ts'
import { transactionWithTxid, type Db } from '../platform/db/database.ts'
import { logSourceEvent } from '../sources/sources.ts'
import { newSourceSecret } from '../platform/crypto/source-secret.ts'
import { checkTeam } from '../sources/create/create-source.ts'

export type ClaimOutcome =
  | { kind: 'claimed'; sourceId: string; txid: number }
  /** Missing, expired, removed or already claimed. */
  | { kind: 'not_claimable' }
  | { kind: 'not_ready' }
  | { kind: 'no_team' }
  | { kind: 'team_full' }
  /** The team already has a source for this database in this region. */
  | { kind: 'existing'; sourceId: string }

type Locked = {
  source_id: string
  state: string
  region: string
  database_key: string
  open: boolean
}

type Claim = {
  claimId: string
  teamId: string
  userId: string
  maxPerTeam: number
  instanceId: string
}

type Refused = Exclude<ClaimOutcome, { kind: 'claimed' }>

export async function claimSource(db: Db, claim: Claim): Promise<ClaimOutcome> {
  const { result, txid } = await transactionWithTxid<Refused | string>(
    db,
    async (client) => {
      const { rows } = await client.query<Locked>(
        `select s.id as source_id, s.state, s.region, s.database_key,
                c.claimed_at is null and c.expires_at > now() and s.deleted_at is null
                  and s.team_id is null as open
           from claimable_sources c join sources s on s.id = c.source_id
          where c.id = $1
          for update of c`,
        [claim.claimId],
      )
      const row = rows[0]
      if (!row?.open) return { kind: 'not_claimable' }
      if (row.state !== 'active') return { kind: 'not_ready' }
      const refused = await checkTeam(client, {
        teamId: claim.teamId,
        region: row.region,
        databaseKey: row.database_key,
        maxPerTeam: claim.maxPerTeam,
      })
      if (refused === 'no_team' || refused === 'team_full')
        return { kind: refused }
      if (refused) return { kind: 'existing', sourceId: refused.id }
      await client.query(
        'update sources set team_id = $2, source_secret = $3 where id = $1',
        [row.source_id, claim.teamId, newSourceSecret()],
      )
      await client.query(
        `update claimable_sources
            set claimed_at = now(), claimed_by = $2, team_id = $3, created_by_ip = null
          where id = $1`,
        [claim.claimId, claim.userId, claim.teamId],
      )
      await logSourceEvent(
        client,
        row.source_id,
        SOURCE_EVENTS.claimed,
        { team_id: claim.teamId, claimed_by: claim.userId },
        claim.instanceId,
      )
      return row.source_id
    },
  )
  if (typeof result !== 'string') return result
  return { kind: 'claimed', sourceId: result, txid }
}
