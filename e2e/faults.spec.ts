// The fault matrix's quick browser faults (F2, F9, F10, F11; docs/development.md, Faults) in `npm
// test`, which builds the dashboard after vitest and before Playwright: each runs its scenario
// (tests/faults/) with its own Postgres, server and Chromium, and must lose nothing, repeat nothing
// and recover. The shared e2e server is not used.
import { expect, test } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { FAULTS } from '../tests/faults/index.ts'
import type { FaultScenario } from '../tests/faults/scenario.ts'
import { databaseUrlFile } from './support/paths.ts'

const browserFaults = FAULTS.filter(
  (f): f is FaultScenario => !('notBuilt' in f) && f.quick && !!f.browser,
)

for (const fault of browserFaults)
  test(`${fault.id}: ${fault.title}`, async () => {
    test.setTimeout(240_000)
    const lines: string[] = []
    const result = await fault
      .run({
        adminUrl: readFileSync(databaseUrlFile, 'utf8'),
        quick: true,
        log: (line) => lines.push(line),
      })
      .catch((error: unknown) => {
        // The scenario's log (its server's output among it) says what led there.
        throw new Error(`${String(error)}\n${lines.slice(-60).join('\n')}`, {
          cause: error,
        })
      })
    // The log is kept for a failure: it is what says where the time went.
    expect({ ...result, log: lines.slice(-60) }).toMatchObject({
      lost: 0,
      duplicated: 0,
      recoverMs: expect.any(Number),
    })
  })
