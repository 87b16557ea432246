import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'

// The wizard's root: its pages render in the dashboard's outlet; the team a link preselects
// (team_id) is kept in the search of every step. A failed provider connection comes back to
// the step it started from with provider_error (provider-error-alert.tsx drops it).
export const Route = createFileRoute('/_dashboard/sources/new')({
  validateSearch: z.object({
    team_id: z.string().optional().catch(undefined),
    provider_error: z.string().optional().catch(undefined),
  }),
})
