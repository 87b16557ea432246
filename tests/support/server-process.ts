// The real `src/server/index.ts` as a child process, for tests that need the process itself:
// its signals, its ports (the product's and the metrics'), its output.
import { spawn, type ChildProcess } from 'node:child_process'
import { waitUntil } from './wait.ts'

export type Server = {
  child: ChildProcess
  output: () => string
  exited: Promise<number | null>
}

export function startServer(env: Record<string, string>): Server {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/server/index.ts'],
    { env: { ...process.env, LOG_LEVEL: 'info', ...env }, stdio: 'pipe' },
  )
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => resolve(code)),
  )
  return { child, output: () => output, exited }
}

/** Waits until `url` answers 200; fails with the process's output if it exits first. */
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
    60_000,
  )
}
