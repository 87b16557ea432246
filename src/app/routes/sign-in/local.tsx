import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { idSchema } from '../../../shared/entities.ts'
import { LocalSignInPage } from '../../features/auth/local-sign-in-page.tsx'

export const Route = createFileRoute('/sign-in/local')({
  // The claim page's sign-in links carry its claim here (in local mode); anything else drops.
  validateSearch: z.object({ claim: idSchema.optional().catch(undefined) }),
  component: LocalSignInPage,
})
