import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { ClaimPage } from '../features/claim/claim-page.tsx'

export const Route = createFileRoute('/claim')({
  // Any text: a missing or empty id shows the page's message; a malformed one is not claimable.
  validateSearch: z.object({
    uuid: z.string().max(100).optional().catch(undefined),
  }),
  component: ClaimPage,
})
