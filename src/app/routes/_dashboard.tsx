import { createFileRoute, redirect } from '@tanstack/react-router'
import { waitForFirstSync } from '../db/first-sync.ts'
import { fetchSessionUser } from '../db/queries.ts'
import { claimStore } from '../db/store.ts'
import { DashboardLayout } from '../features/dashboard/dashboard-layout.tsx'

export const Route = createFileRoute('/_dashboard')({
  // Only signed-in users get past this point; everyone else goes to the landing page.
  beforeLoad: async () => {
    const userId = await fetchSessionUser()
    if (!userId) throw redirect({ to: '/' })
    return { userId }
  },
  loader: async ({ context }) => {
    const store = await claimStore(context.userId)
    await waitForFirstSync(store, context.userId)
    return { store }
  },
  component: DashboardLayout,
})
