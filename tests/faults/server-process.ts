// The whole Sluice server (the production build's bundle and dashboard, `npm start`'s) as
// a child process on a port of its own, against a control-plane Postgres the scenario owns
// (DATABASE_URL), so it can be killed with SIGKILL and started again on the same port, data
// dir and database while that Postgres and the browser stay up.
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { SERVER_BUNDLE } from '../../scripts/build/server.ts'
import { waitUntil } from '../support/wait.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

export type ServerProcess = {
  /** `http://localhost:<port>`: a loopback name the local-mode host guard accepts. */
  url: string
  /** SIGKILL: no orderly stop, as a crash or an OOM kill would end it. */
  kill(): Promise<void>
  /** Starts it again with the same settings; resolves once it answers its health check. */
  start(): Promise<void>
  /** SIGTERM, the server's own orderly stop. */
  stop(): Promise<void>
}

export async function startServerProcess(options: {
  databaseUrl: string
  port: number
  dataDir: string
  log: (line: string) => void
}): Promise<ServerProcess> {
  const url = `http://localhost:${options.port}`
  let child: ChildProcess | null = null
  let exited = true

  const ended = async () => {
    await waitUntil('the server process to exit', () => exited, 30_000)
  }
  const server: ServerProcess = {
    url,
    async start() {
      if (!exited) throw new Error('the server is already running')
      let output = ''
      exited = false
      child = spawn(process.execPath, [SERVER_BUNDLE], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          PORT: String(options.port),
          HOST: 'localhost',
          DATA_DIR: options.dataDir,
          DATABASE_URL: options.databaseUrl,
          LOG_LEVEL: 'info',
          POSTHOG_KEY: '',
        },
      })
      child.on('exit', () => (exited = true))
      const take = (chunk: Buffer) => {
        const text = chunk.toString()
        output += text
        for (const line of text.split('\n'))
          if (line.trim()) options.log(`server: ${line}`)
      }
      child.stdout?.on('data', take)
      child.stderr?.on('data', take)
      try {
        await waitUntil(
          `the server on ${url} to answer`,
          async () => {
            if (exited) throw new Error(`the server exited:\n${output}`)
            return fetch(`${url}/api/public/health`).then(
              (response) => response.ok,
              () => false,
            )
          },
          60_000,
        )
      } catch (error) {
        child.kill('SIGKILL')
        throw error
      }
    },
    async kill() {
      if (exited) return
      child?.kill('SIGKILL')
      await ended()
    },
    async stop() {
      if (exited) return
      child?.kill('SIGTERM')
      await ended()
    },
  }
  await server.start()
  return server
}
