// The services an app built in-process gets when its test does not exercise them: a source
// runtime that runs nothing (every source action answers as for a source not running here) and
// a control-plane sync that fails loudly if a request reaches it (such tests attach a real
// engine: tests/support/gateway-app.ts).
import type { ShapeDatabase } from '../../src/engine/database.ts'
import type { SourceRuntime } from '../../src/server/sources/runtime/runtime.ts'

export const idleSources: SourceRuntime = {
  instanceId: 'api',
  kick() {},
  clearCache: async () => null,
  deleteShape: async () => ({ kind: 'not_running' }),
  shapeMessages: () => ({ kind: 'not_running' }),
  shapeTimeline: () => ({ kind: 'not_running' }),
  retryRemoval() {},
  restart: async () => false,
  holds: () => false,
  onHolderEnded: () => () => {},
  database: () => undefined,
  explorer: () => undefined,
  stop: async () => {},
}

export const noControlPlaneSync = new Proxy({} as ShapeDatabase, {
  get(_target, property) {
    throw new Error(
      `this test's app has no engine attached to the control plane (read ${String(property)}): use tests/support/gateway-app.ts`,
    )
  },
})
