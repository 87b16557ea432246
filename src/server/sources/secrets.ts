// A source's secrets: the one apps send to /v1/shape, and after a rotation the one it replaced,
// which keeps working until its grace ends (SECRET_ROTATION_GRACE), so an app's deploy can move
// to the new secret without a moment when neither works.
import { SOURCE_EVENTS } from '../../shared/sources.ts'
import { newSourceSecret } from '../platform/crypto/source-secret.ts'
import { transactionWithTxid, type Db } from '../platform/db/database.ts'
import { logSourceEvent } from './sources.ts'

export type Rotated = {
  source_secret: string
  previous_valid_until: string
  txid: number
}

/** Issues a new secret; the current one stays valid `graceMs` more. */
export async function rotateSecret(
  db: Db,
  sourceId: string,
  graceMs: number,
  instanceId: string,
): Promise<Rotated> {
  const { result, txid } = await transactionWithTxid(db, async (client) => {
    // The end as Postgres writes it (to the microsecond), as every other read of it answers.
    const { rows } = await client.query<{
      source_secret: string
      until: string
    }>(
      `update sources
          set previous_source_secret = source_secret,
              previous_secret_valid_until = now() + $2 * interval '1 millisecond',
              source_secret = $3
        where id = $1
        returning source_secret, to_json(previous_secret_valid_until) #>> '{}' as until`,
      [sourceId, graceMs, newSourceSecret()],
    )
    const row = rows[0]
    if (!row) throw new Error(`source ${sourceId} is gone`)
    await logSourceEvent(
      client,
      sourceId,
      SOURCE_EVENTS.secretRotated,
      { previous_valid_until: row.until },
      instanceId,
    )
    return { source_secret: row.source_secret, previous_valid_until: row.until }
  })
  return { ...result, txid }
}

/** Ends the previous secret's grace now: only the current secret opens the source. */
export async function endSecretGrace(
  db: Db,
  sourceId: string,
  instanceId: string,
): Promise<number> {
  const { txid } = await transactionWithTxid(db, async (client) => {
    const { rowCount } = await client.query(
      `update sources
          set previous_source_secret = null, previous_secret_valid_until = null
        where id = $1 and previous_source_secret is not null`,
      [sourceId],
    )
    if (rowCount === 1)
      await logSourceEvent(
        client,
        sourceId,
        SOURCE_EVENTS.secretGraceEnded,
        {},
        instanceId,
      )
  })
  return txid
}
