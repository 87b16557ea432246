// The signed-in dashboard: the frame, the sidebar and the page, all reading the local store.
// Until the store is open (PGlite loads after first paint) the frame shows a placeholder.
import { Box, CircularProgress, Divider, Typography } from '@mui/material'
import { getRouteApi, Outlet } from '@tanstack/react-router'
import { Logo } from '../../components/logo.tsx'
import { LocalStoreProvider } from '../../db/tab/provider.tsx'
import { useFollowSession } from '../auth/use-follow-session.ts'
import { DashboardFrame } from './dashboard-frame.tsx'
import { Sidebar } from './sidebar.tsx'

const route = getRouteApi('/_dashboard')

export function DashboardLayout() {
  const { store } = route.useLoaderData()
  const { userId } = route.useRouteContext()
  return (
    <LocalStoreProvider store={store}>
      <SessionDashboard userId={userId} />
    </LocalStoreProvider>
  )
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
