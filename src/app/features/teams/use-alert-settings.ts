// A team's alert thresholds and whether its server can send email, read from the API (they are
// not synced): loading (loaded and error both unset), loaded, or why they could not be read.
import { useCallback, useEffect, useState } from 'react'
import type { AlertSettings } from '../../../shared/alerts.ts'
import { getAlertSettings } from './alerts-api.ts'

type LoadedAlertSettings = {
  settings: AlertSettings
  emailAvailable: boolean
}

type Answer =
  | { key: string; loaded: LoadedAlertSettings; error?: undefined }
  | { key: string; loaded?: undefined; error: string }

export function useAlertSettings(teamId: string) {
  const [attempt, setAttempt] = useState(0)
  // An answer counts only for the team and attempt it was asked for: another is still loading.
  const key = `${teamId}:${attempt}`
  const [answer, setAnswer] = useState<Answer | null>(null)

  useEffect(() => {
    const abort = new AbortController()
    getAlertSettings(teamId, abort.signal)
      .then(({ email_available, ...settings }) =>
        setAnswer({
          key,
          loaded: { settings, emailAvailable: email_available },
        }),
      )
      .catch((e: unknown) => {
        if (abort.signal.aborted) return
        setAnswer({ key, error: e instanceof Error ? e.message : String(e) })
      })
    return () => abort.abort()
  }, [teamId, key])

  /** What a successful save answered becomes what is shown as saved. */
  const saved = useCallback(
    (settings: AlertSettings) =>
      setAnswer((current) =>
        current?.loaded
          ? { ...current, loaded: { ...current.loaded, settings } }
          : current,
      ),
    [],
  )
  const retry = useCallback(() => setAttempt((n) => n + 1), [])
  const current = answer?.key === key ? answer : null
  return {
    loaded: current?.loaded,
    error: current?.error ?? null,
    saved,
    retry,
  }
}
