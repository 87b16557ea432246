import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { NewSourcePage } from '../../../features/sources/new-source-page.tsx'

export const Route = createFileRoute('/_dashboard/sources/new')({
  validateSearch: z.object({ team_id: z.string().optional() }),
  component: NewSourcePage,
})
