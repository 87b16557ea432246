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

// Chromium keeps compiled WebAssembly only for responses from its HTTP cache, never for those a
// service worker hands back. Postgres's wasm (9 MB) is therefore left to the browser: this
// listener, registered before workbox's, ends the event without an answer, so the request goes
// to the HTTP cache (the hashed file is served as immutable) and a repeat visit starts from the
// compiled, optimized code Chromium kept instead of compiling it again. The precached copy
// stays for when that cache was evicted and the server is unreachable: the store's worker then
// reads it itself (src/app/db/worker/postgres-wasm.ts).
// (initdb.wasm, which PGlite fetches but never runs here, stays with the precache.)
const POSTGRES_WASM = /^\/assets\/pglite-[\w-]+\.wasm$/
self.addEventListener('fetch', (event) => {
  if (POSTGRES_WASM.test(new URL(event.request.url).pathname))
    event.stopImmediatePropagation()
})

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
