// Registers the service worker (sw/sw.ts) and offers each new version to the user instead of
// switching code under them: the new worker waits until the user accepts, then takes over, and
// the page that accepted reloads once the new worker controls it.

const SERVICE_WORKER_URL = '/sw.js'
export const SKIP_WAITING = { type: 'SKIP_WAITING' } as const
// Browsers look for a new worker on page loads; a dashboard left open all day also asks hourly.
export const UPDATE_CHECK_MS = 60 * 60 * 1000

type Container = Pick<
  ServiceWorkerContainer,
  'controller' | 'register' | 'addEventListener'
>

export type ServiceWorkerOptions = {
  container: Container
  /** Shows the offer; `accept` is what its Reload button calls. */
  offerUpdate: (accept: () => void) => void
  reload: () => void
}

export async function registerServiceWorker({
  container,
  offerUpdate,
  reload,
}: ServiceWorkerOptions): Promise<ServiceWorkerRegistration> {
  const registration = await container.register(SERVICE_WORKER_URL, {
    scope: '/',
  })

  const accept = (worker: ServiceWorker) => {
    // Another tab accepted first: this page is already controlled by the new worker.
    if (container.controller === worker) return reload()
    let reloading = false
    container.addEventListener('controllerchange', () => {
      if (reloading) return
      reloading = true
      reload()
    })
    worker.postMessage(SKIP_WAITING)
  }
  const offer = (worker: ServiceWorker) => offerUpdate(() => accept(worker))

  // Without a controller, an installed worker is the first one, not an update: it claims the
  // page by itself (sw/sw.ts) and there is nothing to offer.
  if (registration.waiting && container.controller) offer(registration.waiting)
  registration.addEventListener('updatefound', () => {
    const worker = registration.installing
    worker?.addEventListener('statechange', () => {
      if (worker.state === 'installed' && container.controller) offer(worker)
    })
  })

  setInterval(() => {
    // Offline, or the server is restarting: the next check will do.
    registration.update().catch(() => {})
  }, UPDATE_CHECK_MS)
  return registration
}
