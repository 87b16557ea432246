// Build plugin: index.html starts the local store's worker itself, in a browser that holds a
// store or a session, as the page is parsed. The app's scripts (the entry and its chunks) take a few hundred
// milliseconds to load and run; opening Postgres takes longer still, and now starts first.
import type { Plugin } from 'vite'
import { BOOT_HINTS, bootStore } from '../../src/app/db/tab/boot-store.ts'

// The worker's bundle: src/app/db/worker/store-worker.ts, named by Vite's default pattern.
const STORE_WORKER = /^assets\/store-worker-[\w-]+\.js$/

export function earlyStore(): Plugin {
  let base = '/'
  return {
    name: 'sluice-early-store',
    // In development Vite serves the worker from source; the app starts it as usual.
    apply: 'build',
    configResolved(config) {
      base = config.base
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const workers = Object.keys(context.bundle ?? {}).filter((name) =>
          STORE_WORKER.test(name),
        )
        if (workers.length !== 1)
          throw new Error(
            `early store: expected one store worker in the build, found ${workers.length}`,
          )
        const args = [`${base}${workers[0]}`, BOOT_HINTS]
          .map((value) => JSON.stringify(value))
          .join(', ')
        return [
          {
            tag: 'script',
            // A failure here only loses the head start: the app starts the worker itself.
            children: `try { (${bootStore.toString()})(${args}) } catch {}`,
            injectTo: 'head',
          },
        ]
      },
    },
  }
}
