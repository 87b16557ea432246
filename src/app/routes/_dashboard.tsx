import { createFileRoute, redirect } from '@tanstack/react-router'
import { rememberSyncedFor, syncedFor } from '../db/tab/hints.ts'
import { hasLastScreen, showScreenOf } from '../db/tab/last-screen.ts'
import { fetchSessionUser } from '../db/tab/queries.ts'
import { hintedUser } from '../lib/session-hint.ts'
import {
  DashboardLayout,
  DashboardPending,
  type Opened,
} from '../features/dashboard/dashboard-layout.tsx'

export const Route = createFileRoute('/_dashboard')({
  // Only signed-in users get past this point; everyone else goes to the landing page.
  beforeLoad: async () => {
    // PGlite starts while the server is asked who is signed in (the loader reports failures).
    const store = import('../db/tab/store.ts')
    store.then((s) => s.openStore()).catch(() => {})
    // A repeat visit of the user whose data the store holds (and whom the session's hint
    // names) shows their last screen at once (last-screen.ts) while the server is asked: the
    // store becomes theirs again, and syncs, only once the server agrees (the loader).
    const known = syncedFor()
    if (known && hintedUser() === known && hasLastScreen(known))
      return { userId: known, session: fetchSessionUser(), lastScreen: true }
    const userId = await fetchSessionUser()
    performance.mark('sluice:session')
    if (!userId) throw redirect({ to: '/' })
    store.then((s) => s.startFirstSync(userId)).catch(() => {})
    return {
      userId,
      session: Promise.resolve(userId),
      lastScreen: hasLastScreen(userId),
    }
  },
  // PGlite is loaded here, after the frame has painted, so it stays out of the entry chunk.
  loader: async ({ context }) => {
    const [{ claimStore, openStore, storeHandle }, firstSync] =
      await Promise.all([
        import('../db/tab/store.ts'),
        import('../db/tab/first-sync.ts'),
      ])
    showScreenOf(context.userId)
    const opened: Promise<Opened> = Promise.all([
      openStore(),
      context.session,
    ]).then(async ([store, signedIn]) => {
      performance.mark('sluice:store-open')
      // Someone else, or nobody, is signed in: what this tab shows is not theirs, and the
      // hints that said it would be are wrong (the landing page finds out who it is).
      if (signedIn !== context.userId) {
        rememberSyncedFor(null)
        return 'not-signed-in'
      }
      await firstSync.waitForFirstSync(
        store,
        context.userId,
        claimStore(context.userId),
      )
      return 'open'
    })
    // Waited for unless the last screen shows meanwhile; the layout reports the outcome.
    if (!context.lastScreen) await opened
    else opened.catch(() => {})
    performance.mark('sluice:loader-done')
    return { store: storeHandle(), opened }
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
