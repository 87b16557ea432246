import { createFileRoute, redirect } from '@tanstack/react-router'
import { z } from 'zod'
import { fetchAuthUser } from '../db/queries.ts'
import { LandingPage } from '../features/landing/landing-page.tsx'

export const Route = createFileRoute('/')({
  validateSearch: z.object({ sign_in_error: z.string().optional() }),
  beforeLoad: async () => {
    const user = await fetchAuthUser().catch(() => null)
    if (user) throw redirect({ to: '/sources' })
  },
  component: LandingPage,
})
