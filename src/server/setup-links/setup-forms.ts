// Setup forms in the control plane (migration 0008): made, listed and deleted by a team's
// members (api/setup-forms.ts) and the admin tool, read and used by anyone holding the link
// (setup-forms/public-routes.ts). Membership is the caller's to check; these take a team id.
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import type { PublicSetupForm, SetupForm } from '../../shared/setup-forms.ts'
import type { Region } from '../../shared/sources.ts'
import { transactionWithTxid, type Db } from '../platform/db/database.ts'
import { lockTeamForCreate } from '../teams/teams.ts'

type Queryable = Pick<Db, 'query'>

const iso = (column: string) => `to_json(${column}) #>> '{}' as ${column}`
const formColumns = `id, team_id, region, created_by, ${iso('created_at')},
  ${iso('expires_at')}, ${iso('used_at')}, source_id, ${iso('deleted_at')}`

/** A form that may still be used: the condition of every write that depends on it. */
const USABLE = 'used_at is null and deleted_at is null and expires_at > now()'

export type NewSetupForm = {
  teamId: string
  region: Region | null
  /** Null when the admin tool makes it. */
  createdBy: string | null
  expiresInDays: number
  /** Usable forms the team may hold at once. */
  maxLive: number
}

export type CreatedSetupForm =
  | { kind: 'created'; form: SetupForm; txid: number }
  | { kind: 'no_team' }
  | { kind: 'full' }

export async function createSetupForm(
  db: Db,
  input: NewSetupForm,
): Promise<CreatedSetupForm> {
  const { result, txid } = await transactionWithTxid(db, async (client) => {
    // Creates for one team queue here, so two at once cannot both pass the count below.
    if (!(await lockTeamForCreate(client, input.teamId)))
      return 'no_team' as const
    const live = await client.query<{ n: number }>(
      `select count(*)::int as n from source_setup_forms where team_id = $1 and ${USABLE}`,
      [input.teamId],
    )
    if ((live.rows[0]?.n ?? 0) >= input.maxLive) return 'full' as const
    // The id is the link's only credential: random, never guessable from another.
    const { rows } = await client.query<SetupForm>(
      `insert into source_setup_forms (id, team_id, region, created_by, expires_at)
       values ($1, $2, $3, $4, now() + make_interval(days => $5))
       returning ${formColumns}`,
      [
        randomUUID(),
        input.teamId,
        input.region,
        input.createdBy,
        input.expiresInDays,
      ],
    )
    return rows[0] as SetupForm
  })
  if (result === 'no_team' || result === 'full') return { kind: result }
  return { kind: 'created', form: result, txid }
}

/** A team's forms, newest first, deleted and used ones too. */
export async function listSetupForms(
  db: Queryable,
  teamId: string,
): Promise<SetupForm[]> {
  const { rows } = await db.query<SetupForm>(
    `select ${formColumns} from source_setup_forms where team_id = $1
      order by created_at desc, id`,
    [teamId],
  )
  return rows
}

export async function getSetupForm(
  db: Queryable,
  formId: string,
): Promise<SetupForm | null> {
  const { rows } = await db.query<SetupForm>(
    `select ${formColumns} from source_setup_forms where id = $1`,
    [formId],
  )
  return rows[0] ?? null
}

/** What the public page may know of a form: nothing of its team or maker. */
export async function getPublicSetupForm(
  db: Queryable,
  formId: string,
): Promise<PublicSetupForm | null> {
  const form = await getSetupForm(db, formId)
  if (!form) return null
  const { id, region, expires_at, used_at, deleted_at } = form
  return {
    id,
    region: region as PublicSetupForm['region'],
    expires_at,
    used_at,
    deleted_at,
  }
}

/**
 * Soft-deletes a form (of `teamId` when given); deleting it again keeps its first time. Null
 * when there is no such form (in that team).
 */
export async function deleteSetupForm(
  db: Db,
  formId: string,
  teamId: string | null,
): Promise<{ form: SetupForm; txid: number } | null> {
  const { result, txid } = await transactionWithTxid(db, async (client) => {
    const { rows } = await client.query<SetupForm>(
      `update source_setup_forms set deleted_at = coalesce(deleted_at, now())
        where id = $1 and ($2::uuid is null or team_id = $2)
        returning ${formColumns}`,
      [formId, teamId],
    )
    return rows[0] ?? null
  })
  return result && { form: result, txid }
}

/**
 * Marks a usable form used by `sourceId`, inside the source's create transaction. False when
 * the form was no longer usable: another submit used it first (its update holds the row
 * until it commits, and this one then finds used_at set), or it was deleted or expired.
 */
export async function markSetupFormUsed(
  client: pg.PoolClient,
  formId: string,
  sourceId: string,
): Promise<boolean> {
  const { rowCount } = await client.query(
    `update source_setup_forms set used_at = now(), source_id = $2
      where id = $1 and ${USABLE}`,
    [formId, sourceId],
  )
  return rowCount === 1
}
