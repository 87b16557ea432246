// The standalone engine (`src/engine/cli.ts`) as a child process, so a scenario can kill it
// with SIGKILL and start it again on the same port and data dir.
import { spawn, type ChildProcess } from 'node:child_process'
import { readdir, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { waitUntil } from '../support/wait.ts'

const CLI = fileURLToPath(new URL('../../src/engine/cli.ts', import.meta.url))

export type EngineProcess = {
  shapeUrl: string
  /** The engine's own process (node running the CLI), for its RSS and open files. */
  pid: number
  kill(): Promise<void>
  /** SIGTERM: the engine's own orderly stop. */
  stop(): Promise<void>
}

export async function startEngineProcess(options: {
  databaseUrl: string
  port: number
  dataDir: string
  log: (line: string) => void
}): Promise<EngineProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      CLI,
      '--port',
      String(options.port),
      '--data-dir',
      options.dataDir,
    ],
    // The URL holds a password: by the environment, out of ps (an argument warns).
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DATABASE_URL: options.databaseUrl },
    },
  )
  let output = ''
  let exited = false
  child.on('exit', () => (exited = true))
  const take = (chunk: Buffer) => {
    const text = chunk.toString()
    output += text
    for (const line of text.split('\n'))
      if (line.trim()) options.log(`engine: ${line}`)
  }
  child.stdout?.on('data', take)
  child.stderr?.on('data', take)
  const ended = () =>
    waitUntil('the engine process to exit', () => exited, 30_000)
  try {
    await waitUntil(
      'the engine to serve with its database active',
      () => {
        if (exited) throw new Error(`the engine exited:\n${output}`)
        return (
          output.includes('serving the shape API') &&
          /database active/.test(output)
        )
      },
      60_000,
    )
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
  return {
    shapeUrl: `http://127.0.0.1:${options.port}/v1/shape`,
    pid: child.pid!,
    async kill() {
      child.kill('SIGKILL')
      await ended()
    },
    async stop() {
      child.kill('SIGTERM')
      await ended()
    },
  }
}

/** A process's resident memory in bytes and its open files, from /proc; null once it is gone. */
export async function processUsage(
  pid: number,
): Promise<{ rss: number; fds: number } | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8')
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
    const fds = (await readdir(`/proc/${pid}/fd`)).length
    return { rss: kb * 1024, fds }
  } catch {
    return null
  }
}
