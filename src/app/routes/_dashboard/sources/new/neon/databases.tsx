import { createFileRoute, redirect } from '@tanstack/react-router'
import { z } from 'zod'
import { NeonDatabasesPage } from '../../../../../features/providers/neon-databases-page.tsx'
import { sourceDraft } from '../../../../../features/sources/draft.ts'
import { neonDatabasesRedirect } from '../../../../../features/sources/wizard-redirects.ts'

export const Route = createFileRoute('/_dashboard/sources/new/neon/databases')({
  validateSearch: z.object({
    projectId: z.string().catch('').default(''),
    branchId: z.string().catch('').default(''),
  }),
  // Project and branch are picked on the pages before (a link or a reload may lack them).
  beforeLoad: ({ search }) => {
    const target = neonDatabasesRedirect(
      sourceDraft.get(),
      search.projectId,
      search.branchId,
    )
    if (target) throw redirect(target)
  },
  component: NeonDatabasesPage,
})
