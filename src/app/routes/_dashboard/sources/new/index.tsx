import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { NewSourcePage } from '../../../../features/sources/new-source-page.tsx'

export const Route = createFileRoute('/_dashboard/sources/new/')({
  validateSearch: z.object({
    skip_validation: z.boolean().optional().catch(undefined),
  }),
  component: NewSourcePage,
})
