// Which slot and publication the standalone engine uses on its database. Slots belong to the
// whole cluster, so each database gets names of its own (names.ts standaloneNames); an engine
// that already streams under the names it used before (one pair for any database) keeps them,
// so its slot and the WAL it holds are not left behind.
import type { Queryable } from '../pg/sql.ts'
import {
  LEGACY_STANDALONE_ID,
  replicationNames,
  standaloneNames,
  type ReplicationNames,
} from './names.ts'

export async function resolveStandaloneNames(
  client: Queryable,
): Promise<ReplicationNames> {
  const legacy = replicationNames(LEGACY_STANDALONE_ID)
  const { rows } = await client.query<{ db: string; legacy: string }>(
    `select current_database()::text as db,
            exists (select 1 from pg_replication_slots
                     where slot_name = $1 and database = current_database())::text as legacy`,
    [legacy.slot],
  )
  const row = rows[0]
  if (!row) throw new Error('current_database() answered no row')
  return row.legacy === 'true' ? legacy : standaloneNames(row.db)
}
