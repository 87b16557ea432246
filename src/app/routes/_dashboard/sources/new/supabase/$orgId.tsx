import { createFileRoute, redirect } from '@tanstack/react-router'
import { SupabaseProjectPage } from '../../../../../features/providers/supabase-project-page.tsx'
import { sourceDraft } from '../../../../../features/sources/draft.ts'
import { supabaseProjectRedirect } from '../../../../../features/sources/wizard-redirects.ts'

export const Route = createFileRoute('/_dashboard/sources/new/supabase/$orgId')(
  {
    // The organization is picked on the start page (a link or a reload may lack it).
    beforeLoad: ({ params }) => {
      const target = supabaseProjectRedirect(sourceDraft.get(), params.orgId)
      if (target) throw redirect(target)
    },
    component: SupabaseProjectPage,
  },
)
