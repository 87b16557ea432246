// `npm run test:changed [-- REF]`: the inner loop. Only what the changes since REF (default:
// the uncommitted ones, against HEAD) can affect: typecheck (incremental), lint and format of
// the changed files, the Vitest files that import a changed file, and the e2e specs that
// changed or import one (after a build, skipped when dist/ is current). `npm test` stays the
// whole verdict: a change to the app's pages reaches no spec by imports.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { bin, forwardInterrupts, runPhases, type Phase } from './test/phases.ts'

const { positionals } = parseArgs({ allowPositionals: true })
const ref = positionals[0]

const git = (...args: string[]) =>
  execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean)
const changed = [
  ...git('diff', '--name-only', ref ?? 'HEAD'),
  ...git('ls-files', '--others', '--exclude-standard'),
].filter((file) => existsSync(file))

const code = changed.filter((file) => /\.(ts|tsx|js|mjs|cjs)$/.test(file))
const phases: Phase[] = [
  {
    name: 'static checks',
    commands: [
      { label: 'typecheck', argv: bin('tsc', '-b') },
      ...(code.length > 0
        ? [
            {
              label: 'lint',
              argv: bin(
                'eslint',
                '--max-warnings',
                '0',
                '--no-warn-ignored',
                ...code,
              ),
            },
          ]
        : []),
      ...(changed.length > 0
        ? [
            {
              label: 'format',
              argv: bin('prettier', '--check', '--ignore-unknown', ...changed),
            },
          ]
        : []),
    ],
    concurrency: 2,
    limitMinutes: 5,
  },
  {
    name: 'vitest',
    commands: [
      {
        label: 'vitest',
        argv: bin(
          'vitest',
          'run',
          ref ? `--changed=${ref}` : '--changed',
          '--passWithNoTests',
        ),
      },
    ],
    limitMinutes: 15,
  },
  {
    name: 'build',
    commands: [
      { label: 'build', argv: bin('tsx', 'scripts/build.ts', '--if-changed') },
    ],
    limitMinutes: 5,
  },
  {
    name: 'e2e',
    commands: [
      {
        label: 'e2e',
        argv: bin(
          'playwright',
          'test',
          ref ? `--only-changed=${ref}` : '--only-changed',
          '--pass-with-no-tests',
        ),
      },
    ],
    limitMinutes: 25,
  },
]

console.log(
  `${changed.length} changed file(s) since ${ref ?? 'HEAD (uncommitted)'}`,
)
forwardInterrupts()
const result = await runPhases('npm run test:changed', phases)
process.exit(result.ok ? 0 : 1)
