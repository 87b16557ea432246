import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { idSchema } from '../../../shared/entities.ts'
import { fetchAuthUser } from '../../db/tab/queries.ts'
import { WelcomePage } from '../../features/onboarding/welcome-page.tsx'
import { identifyUser } from '../../lib/analytics.ts'

export const Route = createFileRoute('/_dashboard/welcome')({
  // A new user who signed in from a claim page: Skip and Next carry on to that claim.
  validateSearch: z.object({ claim: idSchema.optional().catch(undefined) }),
  // A new user comes here straight from sign-in, never through / (which identifies them):
  // the answers are properties of this person, so analytics must know who it is first.
  beforeLoad: ({ preload }) => {
    if (preload) return
    fetchAuthUser().then(identifyUser, () => {
      // Offline or signed out: the dashboard's own guard handles both; analytics can wait.
    })
  },
  component: WelcomePage,
})
