import { createFileRoute } from '@tanstack/react-router'
import { SupabaseOrganizationsPage } from '../../../../../features/providers/supabase-organizations-page.tsx'

export const Route = createFileRoute('/_dashboard/sources/new/supabase/')({
  component: SupabaseOrganizationsPage,
})
