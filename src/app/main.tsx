// Browser entry: mounts the router inside the theme and the app-wide toast area.
import { CssBaseline, ThemeProvider } from '@mui/material'
import { RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { ToastProvider } from './components/toast.tsx'
import { startAnalytics, trackPageView } from './lib/analytics.ts'
import { router } from './router.tsx'
import { theme } from './theme.ts'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

// One page view per navigation that changed the URL, the first one included.
router.subscribe('onResolved', ({ hrefChanged }) => {
  if (hrefChanged) trackPageView(window.location.href)
})

createRoot(root).render(
  <StrictMode>
    <ThemeProvider theme={theme} defaultMode="system">
      <CssBaseline enableColorScheme />
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </ThemeProvider>
  </StrictMode>,
)

startAnalytics()
