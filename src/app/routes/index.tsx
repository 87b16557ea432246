import { createFileRoute, redirect } from '@tanstack/react-router'
import { z } from 'zod'
import { fetchAuthUser, lastSignedIn } from '../db/tab/queries.ts'
import { LandingPage } from '../features/landing/landing-page.tsx'
import { identifyUser } from '../lib/analytics.ts'
import { ApiError } from '../lib/api.ts'

export const Route = createFileRoute('/')({
  validateSearch: z.object({ sign_in_error: z.string().optional() }),
  beforeLoad: async ({ preload }) => {
    let user
    try {
      user = await fetchAuthUser()
    } catch (error) {
      if (error instanceof ApiError) return
      // Offline: whoever was signed in here gets the dashboard on their last-known data.
      if (await lastSignedIn()) throw redirect({ to: '/sources' })
      return
    }
    // A hover preloads this route too; only a real visit confirms the session to analytics.
    if (!preload) identifyUser(user)
    throw redirect({ to: '/sources' })
  },
  component: LandingPage,
})
