import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { PreferencesPage } from '../../features/preferences/preferences-page.tsx'

export const Route = createFileRoute('/_dashboard/preferences')({
  // A provider connection started here comes back with provider_error when it failed.
  validateSearch: z.object({
    provider_error: z.string().optional().catch(undefined),
  }),
  component: PreferencesPage,
})
