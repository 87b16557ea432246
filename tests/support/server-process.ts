// The real server as a child process, for tests that need the process itself: its signals, its
// ports (the product's and the metrics'), its output. It runs the bundle `npm start` runs, which
// the integration run's global setup builds from the sources as they are.
import { spawn, type ChildProcess } from 'node:child_process'
import { SERVER_BUNDLE } from '../../scripts/build/server.ts'
import { waitUntil } from './wait.ts'

export type Server = {
  child: ChildProcess
  output: () => string
  exited: Promise<number | null>
}

/**
 * Starts the server with `env` on top of this process's environment. `command` and `cwd` run
 * another command line instead (the deploy test runs the image's own, in its directory, with
 * `env` alone), `uid` and `gid` as another user (only root may).
 */
export function startServer(
  env: Record<string, string>,
  {
    command,
    cwd,
    uid,
    gid,
  }: { command?: string[]; cwd?: string; uid?: number; gid?: number } = {},
): Server {
  const [file, ...args] = command ?? [process.execPath, SERVER_BUNDLE]
  const child = spawn(file ?? '', args, {
    cwd,
    uid,
    gid,
    env: command ? env : { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: 'pipe',
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => resolve(code)),
  )
  return { child, output: () => output, exited }
}

/**
 * Waits until `url` answers 200; fails with the process's output if it exits first or never
 * answers. Under the whole suite's load a start was once seen to pass 60 s (its output was not
 * kept then): the bound is twice that, and a failure says what the server printed.
 */
export async function waitUntilUp(server: Server, url: string) {
  await waitUntil(
    `${url} to answer 200`,
    async () => {
      if (server.child.exitCode !== null)
        throw new Error(`server exited:\n${server.output()}`)
      const status = await fetch(url).then(
        (r) => r.status,
        () => 0,
      )
      return status === 200
    },
    120_000,
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}\nits output:\n${server.output()}`, {
      cause: error,
    })
  })
}
