// The service worker: the app shell and PGlite's files come from the precache, so the dashboard
// opens offline. API and shape responses are never cached: no route here matches them, so the
// browser sends them to the network as if there were no worker.
import { clientsClaim } from 'workbox-core'
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching'
import { registerRoute } from 'workbox-routing'
import { isAppRoute } from '../src/shared/app-routes.ts'

declare const self: ServiceWorkerGlobalScope

precacheAndRoute(self.__WB_MANIFEST)
cleanupOutdatedCaches()

// Every client route is the same single-page app, so its navigation gets the cached shell.
// Server paths (/api, /v1, /ingest) and file names are left to the network.
registerRoute(
  ({ request, url }) => request.mode === 'navigate' && isAppRoute(url.pathname),
  createHandlerBoundToURL('/index.html'),
)

// A new version waits, so no page switches code under its user. It takes over when the user
// accepts it: the page's Reload toast posts SKIP_WAITING (src/app/lib/service-worker.ts).
self.addEventListener('message', (event) => {
  const message = event.data as { type?: unknown } | null | undefined
  if (message?.type === 'SKIP_WAITING') void self.skipWaiting()
})

// The first version takes the open page at once, so it works offline without a reload. A later
// version claims pages only once it activates, that is after SKIP_WAITING.
clientsClaim()
