import { createFileRoute, redirect } from '@tanstack/react-router'
import { z } from 'zod'
import { fetchAuthUser } from '../db/queries.ts'
import { LandingPage } from '../features/landing/landing-page.tsx'
import { identifyUser } from '../lib/analytics.ts'

export const Route = createFileRoute('/')({
  validateSearch: z.object({ sign_in_error: z.string().optional() }),
  beforeLoad: async ({ preload }) => {
    const user = await fetchAuthUser().catch(() => null)
    if (!user) return
    // A hover preloads this route too; only a real visit confirms the session to analytics.
    if (!preload) identifyUser(user)
    throw redirect({ to: '/sources' })
  },
  component: LandingPage,
})
