// `npm test`: every check the project has, then how long each phase took
// (scripts/test/phases.ts runs them). The build comes before the tests: the reproducibility
// test and the e2e run both reuse that one dist/.
//
// Static checks run two at a time: each is one busy thread, and this machine kind has 2 cores.
import { bin, forwardInterrupts, runPhases } from './test/phases.ts'

forwardInterrupts()
const result = await runPhases('npm test', [
  {
    name: 'tools',
    commands: [
      { label: 'ensure', argv: bin('tsx', 'scripts/ensure-test-tools.ts') },
    ],
    limitMinutes: 10,
  },
  {
    name: 'static checks',
    commands: [
      { label: 'typecheck', argv: bin('tsc', '-b') },
      { label: 'lint', argv: bin('eslint', '.', '--max-warnings', '0') },
      { label: 'knip', argv: bin('knip') },
      { label: 'format', argv: bin('prettier', '--check', '.') },
    ],
    concurrency: 2,
    limitMinutes: 5,
  },
  {
    name: 'build',
    commands: [{ label: 'build', argv: bin('tsx', 'scripts/build.ts') }],
    limitMinutes: 5,
  },
  {
    name: 'unit',
    commands: [
      { label: 'unit', argv: bin('vitest', 'run', '--project', 'unit') },
    ],
    limitMinutes: 5,
  },
  {
    name: 'integration',
    commands: [
      {
        label: 'integration',
        argv: bin('vitest', 'run', '--project', 'integration'),
      },
    ],
    limitMinutes: 15,
  },
  {
    name: 'e2e',
    commands: [{ label: 'e2e', argv: bin('playwright', 'test') }],
    // About 25 min on today's machines of this kind (playwright.config.ts says why), where it
    // once took 7: a run past 25 was stopped as hung though every test was moving.
    limitMinutes: 45,
  },
])
process.exit(result.ok ? 0 : 1)
