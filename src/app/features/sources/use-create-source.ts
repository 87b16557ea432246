// Creating a source: PUT /api/v1/sources, then wait until the new row has synced
// into the store, so the source's page has it the moment it opens.
import { useState } from 'react'
import type { CreateSourceRequest } from '../../../shared/sources.ts'
import { TxidTimeoutError } from '../../db/shared/await-txid.ts'
import { useSyncedWrites } from '../../db/tab/hooks.ts'
import { createSource, errorMessage } from './source-api.ts'

export type CreateState =
  | { kind: 'idle' }
  | { kind: 'creating' }
  | { kind: 'failed'; message: string }
  /** The same database was already registered by that team in that region (status 200). */
  | { kind: 'registered'; sourceId: string; teamId: string }
  /** Created, but not synced to this browser in time. */
  | { kind: 'unsynced'; message: string; sourceId: string; teamId: string }

export function useCreateSource() {
  const [state, setState] = useState<CreateState>({ kind: 'idle' })
  const { awaitCreated } = useSyncedWrites()

  /** The new source's id once it is in the store; null when it was not created or synced. */
  const create = async (
    request: CreateSourceRequest,
    skipValidation: boolean,
  ): Promise<string | null> => {
    setState({ kind: 'creating' })
    let sourceId: string | null = null
    try {
      const answer = await createSource(request, skipValidation)
      sourceId = answer.id
      // The contract's sign of a 200: nothing was written, so there is no txid to wait for.
      if (answer.txid === undefined) {
        setState({ kind: 'registered', sourceId, teamId: request.team_id })
        return null
      }
      await awaitCreated('sources', sourceId, answer.txid)
      return sourceId
    } catch (error) {
      if (error instanceof TxidTimeoutError && sourceId)
        setState({
          kind: 'unsynced',
          message: error.message,
          sourceId,
          teamId: request.team_id,
        })
      else setState({ kind: 'failed', message: errorMessage(error) })
      return null
    }
  }

  return { state, create }
}
