import { createFileRoute, redirect } from '@tanstack/react-router'
import { z } from 'zod'
import { sourceDraft } from '../../../../features/sources/draft.ts'
import { SourceConfigurationPage } from '../../../../features/sources/source-configuration-page.tsx'
import { sourceConfigurationRedirect } from '../../../../features/sources/wizard-redirects.ts'

export const Route = createFileRoute(
  '/_dashboard/sources/new/source-configuration',
)({
  validateSearch: z.object({
    skip_validation: z.boolean().optional().catch(undefined),
  }),
  // Earlier steps' choices missing (a reload drops the connection string): back to them.
  beforeLoad: ({ search }) => {
    const target = sourceConfigurationRedirect(sourceDraft.get())
    if (!target) return
    // Back at the start, the wizard keeps its team and skip_validation.
    if (target.to === '/sources/new') throw redirect({ to: target.to, search })
    throw redirect(target)
  },
  component: SourceConfigurationPage,
})
