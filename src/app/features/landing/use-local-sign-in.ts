// Whether this server signs in with a name and an email (local mode) rather than at GitHub or
// Google, as its providers endpoint says; false until it has said so.
import { useEffect, useState } from 'react'
import { z } from 'zod'
import { api } from '../../lib/api.ts'
import { AUTH_PROVIDERS_PATH } from '../../../shared/api-routes.ts'

const providersSchema = z.object({ local: z.boolean() })

export function useLocalSignIn(): boolean {
  const [local, setLocal] = useState(false)
  useEffect(() => {
    const controller = new AbortController()
    api(AUTH_PROVIDERS_PATH, providersSchema, {
      signal: controller.signal,
    }).then(
      (providers) => setLocal(providers.local),
      // Only a note depends on it: without an answer the page reads as it does when hosted.
      () => {},
    )
    return () => controller.abort()
  }, [])
  return local
}
