// The admin tool (`npm run admin`) for tests: run in the test's own process with the given
// environment and its output collected (src/server/admin/run.ts), as a process would see it;
// admin-cli.test.ts also runs it once as the npm script's child process.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { expect } from 'vitest'
import { ADMIN_BUNDLE } from '../../scripts/build/server.ts'
import { runAdmin } from '../../src/server/admin/run.ts'
import { parseEnv } from '../../src/server/platform/env.ts'

export type AdminRun = { code: number; stdout: string; stderr: string }

/** `npm run admin -- ...args` with only `env` for its environment. */
export async function admin(
  args: string[],
  env: Record<string, string>,
): Promise<AdminRun> {
  let stdout = ''
  let stderr = ''
  const code = await runAdmin(args, {
    env: () => parseEnv(env),
    vars: env,
    out: (line) => (stdout += `${line}\n`),
    err: (line) => (stderr += `${line}\n`),
  })
  return { code, stdout, stderr }
}

/** The same as a child process, as `npm run admin` starts it (tsx, about 1.5 s a run). */
export async function adminProcess(
  args: string[],
  env: Record<string, string>,
  /** Run the bundled tool, as the image does, rather than its sources. */
  { bundled = false } = {},
): Promise<AdminRun> {
  const entry = bundled
    ? [ADMIN_BUNDLE]
    : ['--import', 'tsx', 'src/server/admin/cli.ts']
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [...entry, ...args],
      { env: { PATH: process.env.PATH, ...env }, timeout: 60_000 },
    )
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

/** A successful run's JSON answer (and nothing on stderr). */
export function adminJson<T>(run: AdminRun): T {
  expect(run).toMatchObject({ code: 0, stderr: '' })
  return JSON.parse(run.stdout) as T
}
