// The update flow of src/app/lib/service-worker.ts against a stand-in of the browser's service
// worker objects: a new version is offered, waits, and takes over only when the user accepts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  registerServiceWorker,
  SKIP_WAITING,
  UPDATE_CHECK_MS,
  type ServiceWorkerOptions,
} from '../../src/app/lib/service-worker.ts'

class FakeWorker extends EventTarget {
  state: ServiceWorkerState = 'installing'
  readonly messages: unknown[] = []
  postMessage(message: unknown) {
    this.messages.push(message)
  }
  become(state: ServiceWorkerState) {
    this.state = state
    this.dispatchEvent(new Event('statechange'))
  }
}

class FakeRegistration extends EventTarget {
  installing: FakeWorker | null = null
  waiting: FakeWorker | null = null
  readonly update = vi.fn(() => Promise.resolve())
  /** The browser found a new worker script and starts installing it. */
  find(worker: FakeWorker) {
    this.installing = worker
    this.dispatchEvent(new Event('updatefound'))
  }
}

class FakeContainer extends EventTarget {
  controller: FakeWorker | null = null
  readonly registration = new FakeRegistration()
  readonly register = vi.fn(() => Promise.resolve(this.registration))
  /** A worker takes control of the page. */
  control(worker: FakeWorker) {
    this.controller = worker
    this.dispatchEvent(new Event('controllerchange'))
  }
}

let container: FakeContainer
let offers: Array<() => void>
const reload = vi.fn()

async function start() {
  offers = []
  await registerServiceWorker({
    container: container as unknown as ServiceWorkerOptions['container'],
    offerUpdate: (accept) => offers.push(accept),
    reload,
  })
}

beforeEach(() => {
  vi.useFakeTimers()
  reload.mockClear()
  container = new FakeContainer()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('registerServiceWorker', () => {
  it('registers /sw.js for the whole origin', async () => {
    await start()
    expect(container.register).toHaveBeenCalledWith('/sw.js', { scope: '/' })
  })

  it('offers nothing on a first visit, and the first worker claiming the page reloads nothing', async () => {
    await start()
    const first = new FakeWorker()
    container.registration.find(first)
    first.become('installed')
    first.become('activated')
    container.control(first)
    expect(offers).toHaveLength(0)
    expect(reload).not.toHaveBeenCalled()
  })

  it('offers a new version, which waits until accepted, then reloads once it controls the page', async () => {
    container.controller = new FakeWorker()
    await start()
    const next = new FakeWorker()
    container.registration.find(next)
    expect(offers).toHaveLength(0)
    next.become('installed')
    expect(offers).toHaveLength(1)
    expect(next.messages).toEqual([])

    offers[0]?.()
    expect(next.messages).toEqual([SKIP_WAITING])
    expect(reload).not.toHaveBeenCalled()

    next.become('activated')
    container.control(next)
    container.control(next)
    expect(reload).toHaveBeenCalledTimes(1)
  })

  it('offers a version left waiting by an earlier visit', async () => {
    container.controller = new FakeWorker()
    const waiting = new FakeWorker()
    waiting.state = 'installed'
    container.registration.waiting = waiting
    await start()
    expect(offers).toHaveLength(1)
    offers[0]?.()
    expect(waiting.messages).toEqual([SKIP_WAITING])
  })

  it('does not reload a page whose user did not accept, even when another tab did', async () => {
    container.controller = new FakeWorker()
    await start()
    const next = new FakeWorker()
    container.registration.find(next)
    next.become('installed')
    // Another tab accepted: the new worker takes this page too.
    next.become('activated')
    container.control(next)
    expect(reload).not.toHaveBeenCalled()
    // This page's Reload still works: the new worker already controls it.
    offers[0]?.()
    expect(reload).toHaveBeenCalledTimes(1)
  })

  it('asks for a new version every hour, and shrugs off a failed check', async () => {
    await start()
    container.registration.update.mockRejectedValueOnce(new Error('offline'))
    expect(container.registration.update).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_MS)
    expect(container.registration.update).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_MS)
    expect(container.registration.update).toHaveBeenCalledTimes(2)
  })
})
