import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { ShapeExplorerPage } from '../../../features/shapes/shape-explorer-page.tsx'

export const Route = createFileRoute('/_dashboard/shape-explorer/')({
  validateSearch: z.object({
    table: z.string().optional(),
    where: z.string().optional(),
    teamId: z.string().optional(),
    sourceId: z.string().optional(),
  }),
  component: ShapeExplorerPage,
})
