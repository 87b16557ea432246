import { createFileRoute, redirect } from '@tanstack/react-router'
import { fetchSessionUser } from '../db/tab/queries.ts'
import {
  DashboardLayout,
  DashboardPending,
} from '../features/dashboard/dashboard-layout.tsx'

export const Route = createFileRoute('/_dashboard')({
  // Only signed-in users get past this point; everyone else goes to the landing page.
  beforeLoad: async () => {
    // PGlite starts while the server is asked who is signed in (the loader reports failures).
    import('../db/tab/store.ts')
      .then((store) => store.openStore())
      .catch(() => {})
    const userId = await fetchSessionUser()
    performance.mark('sluice:session')
    if (!userId) throw redirect({ to: '/' })
    return { userId }
  },
  // PGlite is loaded here, after the frame has painted, so it stays out of the entry chunk.
  loader: async ({ context }) => {
    const { claimStore, openStore } = await import('../db/tab/store.ts')
    const { waitForFirstSync } = await import('../db/tab/first-sync.ts')
    const store = await openStore()
    performance.mark('sluice:store-open')
    await waitForFirstSync(store, context.userId, claimStore(context.userId))
    performance.mark('sluice:loader-done')
    return { store }
  },
  // The store opens once per tab; the loader's answer stays good.
  staleTime: Infinity,
  pendingMs: 0,
  // The router keeps a pending component up for at least half a second by default: on a
  // repeat visit the store opens sooner after it shows, and the page would wait for nothing.
  pendingMinMs: 0,
  pendingComponent: DashboardPending,
  component: DashboardLayout,
})
