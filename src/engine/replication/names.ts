// Names of the per-database slot and publication. Slot names allow only [a-z0-9_] and
// publication names are identifiers, so one sanitised name serves both. The server names
// them by source id; the standalone engine by its database (or Electric's stream id).
import { createHash } from 'node:crypto'

const PREFIX = 'sluice_'
/** NAMEDATALEN - 1: longer names are truncated by Postgres, so we never produce one. */
const MAX_NAME_BYTES = 63
const HASH_LENGTH = 8

export type ReplicationNames = { slot: string; publication: string }

/**
 * `sluice_<id>`, lower-cased with anything outside [a-z0-9_] replaced. When that loses
 * information (or the name would pass 63 bytes) a short hash of the original id is appended,
 * so two distinct ids never share a slot.
 */
export function replicationNames(id: string): ReplicationNames {
  if (id.length === 0) throw new Error('replication names need a non-empty id')
  const cleaned = id.toLowerCase().replace(/[^a-z0-9_]/g, '_')
  const room = MAX_NAME_BYTES - PREFIX.length
  let name = PREFIX + cleaned
  if (cleaned !== id || cleaned.length > room) {
    const hash = createHash('sha256')
      .update(id)
      .digest('hex')
      .slice(0, HASH_LENGTH)
    name = `${PREFIX}${cleaned.slice(0, room - HASH_LENGTH - 1)}_${hash}`
  }
  return { slot: name, publication: name }
}

/** The standalone engine's names before they included the database: kept where in use. */
export const LEGACY_STANDALONE_ID = 'standalone'

/**
 * The standalone engine's names on a database: one per database, since slots are shared by
 * every database of a cluster and two engines on two databases must not share one.
 */
export function standaloneNames(database: string): ReplicationNames {
  return replicationNames(`${LEGACY_STANDALONE_ID}_${database}`)
}

/** Electric's names for ELECTRIC_REPLICATION_STREAM_ID (an unquoted identifier, lower-cased). */
export function electricNames(streamId: string): ReplicationNames {
  return {
    slot: `electric_slot_${streamId}`,
    publication: `electric_publication_${streamId}`,
  }
}

/** The longest stream id whose publication name (the longer) fits in 63 bytes. */
export const MAX_STREAM_ID_LENGTH =
  MAX_NAME_BYTES - 'electric_publication_'.length
