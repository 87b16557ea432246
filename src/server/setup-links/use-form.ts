// Using a setup form: its team gets the source, and the form is marked used in the same
// transaction (createSource's onWrite), so of two submits at once exactly one commits a
// source; the other's is rolled back and it learns the form was used. The URL's guard and
// readiness check ran before (public-routes.ts).
import {
  setupFormUnusable,
  type SetupFormUnusable,
} from '../../shared/setup-forms.ts'
import type { Region } from '../../shared/sources.ts'
import type { Db } from '../platform/db/database.ts'
import { getSetupForm, markSetupFormUsed } from './setup-forms.ts'
import { createSource } from '../sources/create/create-source.ts'
import type { SourceAddress } from '../sources/create/database-url.ts'

export type UseSetupForm = {
  formId: string
  teamId: string
  region: Region
  address: SourceAddress
  instanceId: string
  maxPerTeam: number
}

export type UseOutcome =
  | { kind: 'created'; id: string; source_secret: string }
  | { kind: 'unusable'; reason: SetupFormUnusable }
  | { kind: 'existing' }
  | { kind: 'team_full' }
  | { kind: 'no_team' }

/** Thrown inside the create's transaction to roll it back: the form was no longer usable. */
class FormTaken extends Error {}

export async function useSetupForm(
  db: Db,
  key: Buffer,
  use: UseSetupForm,
): Promise<UseOutcome> {
  let outcome
  try {
    outcome = await createSource(
      db,
      key,
      {
        teamId: use.teamId,
        name: null,
        region: use.region,
        address: use.address,
        instanceId: use.instanceId,
        maxPerTeam: use.maxPerTeam,
      },
      async (client, written) => {
        if (written.created) {
          if (!(await markSetupFormUsed(client, use.formId, written.id)))
            throw new FormTaken()
          return
        }
        // The team has this database already, which a submit that won this form may have
        // just added (creates of a team queue on its row): then this one lost the form.
        const form = await getSetupForm(client, use.formId)
        if (!form || setupFormUnusable(form)) throw new FormTaken()
      },
    )
  } catch (error) {
    if (!(error instanceof FormTaken)) throw error
    const form = await getSetupForm(db, use.formId)
    // A form that reads usable here failed the database's clock: it expired on the way.
    const reason = form ? (setupFormUnusable(form) ?? 'expired') : 'deleted'
    return { kind: 'unusable', reason }
  }
  if (outcome.kind === 'created')
    return {
      kind: 'created',
      id: outcome.id,
      source_secret: outcome.source_secret,
    }
  return { kind: outcome.kind }
}
