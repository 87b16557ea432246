// The server app over a test file's own control-plane database, with an engine attached to it:
// the dashboard's shapes answered in process, as gateway tests drive them.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, vi } from 'vitest'
import type { ShapeDatabase } from '../../src/engine/database.ts'
import { Engine } from '../../src/engine/engine.ts'
import { buildApp, type App } from './app.ts'
import { useControlPlaneDatabase } from './database.ts'

/** Registers the hooks; read the fields inside tests or hooks, not at module load. */
export function useGatewayApp(name: string) {
  const database = useControlPlaneDatabase()
  let engine: Engine
  let shapes: ShapeDatabase | undefined
  let app: App | undefined
  let dataDir: string

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), `sluice-${name}-`))
    engine = new Engine({ dataDir })
    const attached = engine.attach(`${name}_${Date.now()}`, database.url)
    shapes = attached
    app = buildApp(database.db, {}, { shapes: attached })
    await vi.waitFor(() => expect(attached.status).toBe('active'), {
      timeout: 30_000,
    })
  }, 60_000)

  afterAll(async () => {
    await shapes?.destroy()
    await engine?.stop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  const ready = <T>(value: T | undefined): T => {
    if (value === undefined)
      throw new Error('the gateway app starts in beforeAll')
    return value
  }
  return {
    database,
    get app(): App {
      return ready(app)
    },
    get shapes(): ShapeDatabase {
      return ready(shapes)
    },
  }
}
