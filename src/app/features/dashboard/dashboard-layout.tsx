// The signed-in dashboard: the frame, the sidebar and the page, all reading the local store.
// Until the store is open (PGlite loads after first paint) the frame shows a placeholder, or,
// on a repeat visit, the rows the last visit showed (db/tab/last-screen.ts).
import { Box, CircularProgress, Divider, Typography } from '@mui/material'
import {
  getRouteApi,
  Outlet,
  useNavigate,
  useRouter,
} from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { Logo } from '../../components/logo.tsx'
import { LocalStoreProvider } from '../../db/tab/provider.tsx'
import { useFollowSession } from '../auth/use-follow-session.ts'
import { DashboardFrame } from './dashboard-frame.tsx'
import { Sidebar } from './sidebar.tsx'

const route = getRouteApi('/_dashboard')

/** How opening the store for this tab ended: open, or not the signed-in user's to show. */
export type Opened = 'open' | 'not-signed-in'

export function DashboardLayout() {
  const { store, opened } = route.useLoaderData()
  const { userId } = route.useRouteContext()
  useOpening(opened)
  return (
    <LocalStoreProvider store={store}>
      <SessionDashboard userId={userId} />
    </LocalStoreProvider>
  )
}

// A screen shown from the last visit's rows renders before the store has opened and before the
// server has said who is signed in. A store that never opens is shown by the route's error
// view, as when the loader waited; a session that is not this user's goes to the landing page.
function useOpening(opened: Promise<Opened>) {
  const navigate = useNavigate()
  const router = useRouter()
  const [failure, setFailure] = useState<{ error: unknown } | null>(null)
  useEffect(() => {
    let current = true
    opened.then(
      (outcome) => {
        if (!current || outcome !== 'not-signed-in') return
        // The loaders' answers belong to the session that is not there.
        router.clearCache()
        void navigate({ to: '/' })
      },
      (error: unknown) => {
        if (current) setFailure({ error })
      },
    )
    return () => {
      current = false
    }
  }, [opened, navigate, router])
  if (failure) throw failure.error
}

// A store emptied by a sign-out in another tab would show an empty dashboard with no user;
// until this tab has followed the session to the landing page it shows the placeholder.
function SessionDashboard(props: { userId: string }) {
  const current = useFollowSession(props.userId)
  if (!current) return <DashboardPending />
  return (
    <DashboardFrame sidebar={<Sidebar />}>
      <Outlet />
    </DashboardFrame>
  )
}

export function DashboardPending() {
  return (
    <DashboardFrame
      sidebar={
        <>
          <Box sx={{ px: 2, py: 2 }}>
            <Logo />
          </Box>
          <Divider />
        </>
      }
    >
      <Box
        role="status"
        sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 4 }}
      >
        <CircularProgress size={20} />
        <Typography color="text.secondary">Opening your data…</Typography>
      </Box>
    </DashboardFrame>
  )
}
