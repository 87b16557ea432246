// A team's API tokens, read from the API (they are not synced): loading (tokens and error both
// unset), loaded, or why they could not be read. `reload` reads them again after a create or a
// revoke, since no shape brings the change.
import { useCallback, useEffect, useState } from 'react'
import type { ApiToken } from '../../../shared/api-tokens.ts'
import { listApiTokens } from './api-tokens-api.ts'

type Answer =
  | { key: string; tokens: ApiToken[]; error?: undefined }
  | { key: string; tokens?: undefined; error: string }

export function useApiTokens(teamId: string) {
  const [attempt, setAttempt] = useState(0)
  // An answer counts only for the team and attempt it was asked for: another is still loading.
  const key = `${teamId}:${attempt}`
  const [answer, setAnswer] = useState<Answer | null>(null)
  // What was last loaded for this team stays shown while a reload runs, so the list never blinks.
  const [shown, setShown] = useState<{ teamId: string; tokens: ApiToken[] }>()

  useEffect(() => {
    const abort = new AbortController()
    listApiTokens(teamId, abort.signal)
      .then((tokens) => {
        setAnswer({ key, tokens })
        setShown({ teamId, tokens })
      })
      .catch((e: unknown) => {
        if (abort.signal.aborted) return
        setAnswer({ key, error: e instanceof Error ? e.message : String(e) })
      })
    return () => abort.abort()
  }, [teamId, key])

  const reload = useCallback(() => setAttempt((n) => n + 1), [])
  const current = answer?.key === key ? answer : null
  return {
    tokens: shown?.teamId === teamId ? shown.tokens : undefined,
    error: current?.error ?? null,
    reload,
  }
}
