import { createFileRoute, redirect } from '@tanstack/react-router'
import { fetchAuthUser, fetchDashboard } from '../db/queries.ts'
import { DashboardLayout } from '../features/dashboard/dashboard-layout.tsx'

export const Route = createFileRoute('/_dashboard')({
  // Only signed-in users get past this point; everyone else goes to the landing page.
  beforeLoad: async () => {
    const user = await fetchAuthUser().catch(() => null)
    if (!user) throw redirect({ to: '/' })
  },
  loader: async () => {
    try {
      return await fetchDashboard()
    } catch {
      throw redirect({ to: '/' })
    }
  },
  component: DashboardLayout,
})
