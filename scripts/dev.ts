// npm run dev: the server (API, shapes, embedded Postgres) plus Vite with hot reload in front.
import { spawn } from 'node:child_process'

const serverPort = process.env.SLUICE_SERVER_PORT ?? '5133'
const children = [
  spawn('tsx', ['watch', '--clear-screen=false', 'src/server/index.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: serverPort },
  }),
  spawn('vite', ['--port', process.env.PORT ?? '5173'], {
    stdio: 'inherit',
    env: { ...process.env, SLUICE_SERVER_PORT: serverPort },
  }),
]

let exiting = false
const stop = (code: number) => {
  if (exiting) return
  exiting = true
  for (const child of children) child.kill('SIGTERM')
  process.exitCode = code
}
for (const child of children) child.on('exit', (code) => stop(code ?? 0))
process.on('SIGINT', () => stop(0))
process.on('SIGTERM', () => stop(0))
