// Browser entry: mounts the router inside the theme and the app-wide toast area, then, in a
// production build, registers the service worker.
import { CssBaseline, ThemeProvider } from '@mui/material'
import { RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { showToast, ToastProvider } from './components/toast.tsx'
import { startStoreEarly } from './db/tab/worker-thread.ts'
import { startAnalytics, trackPageView } from './lib/analytics.ts'
import { afterFirstScreen } from './lib/first-screen.ts'
import { registerServiceWorker } from './lib/service-worker.ts'
import { router } from './router.tsx'
import { theme } from './theme.ts'

// A dashboard that never shows its data (an error page, say) still gets its service worker.
const FIRST_SCREEN_LIMIT_MS = 10_000

// Profiling marks (`sluice:*`) place each step of a visit on the page's timeline (bench:web).
performance.mark('sluice:main')
// Before anything else: a returning user's Postgres opens while the app starts.
const storeStarted = startStoreEarly()
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

// In development Vite serves the code and no worker exists (vite.config.ts). A signed-in
// visit registers it once its first screen of data shows (lib/first-screen.ts).
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  if (storeStarted)
    void afterFirstScreen(FIRST_SCREEN_LIMIT_MS).then(() =>
      afterFirstPaint(startServiceWorker),
    )
  else afterFirstPaint(startServiceWorker)
}

function startServiceWorker() {
  registerServiceWorker({
    container: navigator.serviceWorker,
    offerUpdate: (accept) =>
      showToast('A new version is available', 'info', {
        label: 'Reload',
        onClick: accept,
      }),
    reload: () => window.location.reload(),
  }).catch((error: unknown) =>
    // The app works without the worker; it only loses the offline shell.
    console.warn('Service worker registration failed', error),
  )
}

// The worker's precache download must not compete with the first screen: wait for the page's
// load, then for the frame after the next paint.
function afterFirstPaint(run: () => void) {
  const later = () => requestAnimationFrame(() => setTimeout(run))
  if (document.readyState === 'complete') later()
  else window.addEventListener('load', later, { once: true })
}
