import { createFileRoute, redirect } from '@tanstack/react-router'
import { z } from 'zod'
import { NeonBranchesPage } from '../../../../../features/providers/neon-branches-page.tsx'
import { sourceDraft } from '../../../../../features/sources/draft.ts'
import { neonBranchesRedirect } from '../../../../../features/sources/wizard-redirects.ts'

export const Route = createFileRoute('/_dashboard/sources/new/neon/branches')({
  validateSearch: z.object({ projectId: z.string().catch('').default('') }),
  // The project is picked on the start page (a link or a reload may lack it).
  beforeLoad: ({ search }) => {
    const target = neonBranchesRedirect(sourceDraft.get(), search.projectId)
    if (target) throw redirect(target)
  },
  component: NeonBranchesPage,
})
