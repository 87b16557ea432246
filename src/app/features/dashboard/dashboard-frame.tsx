// The signed-in frame: a permanent sidebar on wide screens, a toggled drawer below the
// breakpoint. It draws at once; what goes in the sidebar and the page comes from the caller.
import MenuIcon from '@mui/icons-material/Menu'
import { AppBar, Box, Drawer, IconButton, Toolbar } from '@mui/material'
import { useRouterState } from '@tanstack/react-router'
import { useState, type ReactNode } from 'react'
import { Logo } from '../../components/logo.tsx'
import { OfflineIndicator } from '../../components/offline-indicator.tsx'
import { useWideScreen } from '../../components/use-wide-screen.ts'

const SIDEBAR_WIDTH = 260

export function DashboardFrame(props: {
  sidebar: ReactNode
  children: ReactNode
}) {
  const wide = useWideScreen()
  const path = useRouterState({ select: (s) => s.location.pathname })
  // The drawer belongs to the page it was opened on: navigating from it closes it.
  const [openOn, setOpenOn] = useState<string | null>(null)
  const open = openOn === path
  const setOpen = (value: boolean) => setOpenOn(value ? path : null)

  return (
    <Box sx={{ display: 'flex', flex: 1, minHeight: 0 }}>
      {wide ? (
        <Drawer
          variant="permanent"
          sx={{
            width: SIDEBAR_WIDTH,
            flexShrink: 0,
            '& .MuiDrawer-paper': { width: SIDEBAR_WIDTH },
          }}
        >
          {props.sidebar}
        </Drawer>
      ) : (
        <>
          <AppBar position="fixed" color="default" elevation={1}>
            <Toolbar>
              <IconButton
                edge="start"
                aria-label="Open navigation"
                onClick={() => setOpen(true)}
                sx={{ mr: 1 }}
              >
                <MenuIcon />
              </IconButton>
              <Logo size={24} />
            </Toolbar>
          </AppBar>
          <Drawer
            variant="temporary"
            open={open}
            onClose={() => setOpen(false)}
            ModalProps={{ keepMounted: true }}
            sx={{ '& .MuiDrawer-paper': { width: SIDEBAR_WIDTH } }}
          >
            {props.sidebar}
          </Drawer>
        </>
      )}
      <Box
        component="main"
        sx={{ flex: 1, minWidth: 0, p: { xs: 2, md: 4 }, mt: wide ? 0 : 7 }}
      >
        <OfflineIndicator />
        {props.children}
      </Box>
    </Box>
  )
}
