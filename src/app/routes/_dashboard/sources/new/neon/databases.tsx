import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { ProviderPlaceholderPage } from '../../../../../features/sources/provider-placeholder-page.tsx'

// Where Back from configuration leads for a Neon source (spec §4); the page itself ships with
// the Neon flow.
export const Route = createFileRoute('/_dashboard/sources/new/neon/databases')({
  validateSearch: z.object({
    projectId: z.string().default(''),
    branchId: z.string().default(''),
  }),
  component: () => <ProviderPlaceholderPage provider="Neon" />,
})
