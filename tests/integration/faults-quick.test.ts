// The quick scenarios of the fault matrix, as `npm run faults` runs them but with
// short faults: each must lose nothing, repeat nothing and recover. The scenarios themselves
// are in tests/faults/.
import { describe, expect, inject, it } from 'vitest'
import { FAULTS } from '../faults/index.ts'
import type { FaultScenario } from '../faults/scenario.ts'

// Those that drive a browser need the build, which `npm test` makes after vitest: they run in
// e2e/faults.spec.ts.
const quick = FAULTS.filter(
  (f): f is FaultScenario => !('notBuilt' in f) && f.quick && !f.browser,
)

describe('fault scenarios', () => {
  it.each(quick.map((f) => [`${f.id}: ${f.title}`, f] as const))(
    '%s',
    async (_, fault) => {
      const lines: string[] = []
      const result = await fault.run({
        adminUrl: inject('pgAdminUrl'),
        quick: true,
        log: (line) => lines.push(line),
      })
      expect({ ...result, log: lines }).toMatchObject({
        lost: 0,
        duplicated: 0,
        recoverMs: expect.any(Number),
      })
    },
    90_000,
  )
})
