// Runs a test script's phases one after another and ends with how long each took. A phase
// that fails ends the run (the timings so far printed, the failure named); a phase that runs
// past its bound is stopped and named, so a hang never holds the run for ever. Used by
// `npm test` (scripts/test.ts) and `npm run test:changed` (scripts/test-changed.ts).
import { spawn } from 'node:child_process'
import { performance } from 'node:perf_hooks'

type Command = { label: string; argv: string[] }
export type Phase = {
  name: string
  commands: Command[]
  /** How many of its commands run at once (default 1). */
  concurrency?: number
  /** Past this the phase is stopped as hung. */
  limitMinutes: number
}
type Timing = { name: string; ms: number; ok: boolean }
export type RunResult = { ok: boolean; timings: Timing[]; failed?: string }

type Outcome = { ok: boolean; why?: string }
type Out = { write(text: string | Uint8Array): unknown }

/** A command from node_modules/.bin. */
export const bin = (name: string, ...args: string[]): string[] => [
  `node_modules/.bin/${name}`,
  ...args,
]

// Each command runs in a process group of its own, so a stop reaches the processes it started
// too (servers, browsers, Postgres). That also puts it out of reach of the terminal's Ctrl-C:
// the runner passes an interrupt on to every group still running.
const running = new Set<number>()
/** For the scripts' own process only (never a test's): it ends the process on an interrupt. */
export function forwardInterrupts() {
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => {
      for (const pid of running) killGroup(pid)
      process.stderr.write(`\n${signal}: tests stopped\n`)
      process.exit(130)
    })
}

function killGroup(pid: number) {
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // The group ended by itself meanwhile.
  }
}

/**
 * Runs one command. Alone in its phase it prints as it goes; beside others its output is held
 * and printed whole when it ends, so two commands' lines never interleave.
 */
function run(
  command: Command,
  shared: boolean,
  signal: AbortSignal,
  out: Out,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const [file = '', ...args] = command.argv
    const child = spawn(file, args, {
      stdio: shared || out !== process.stdout ? 'pipe' : 'inherit',
      detached: true,
    })
    const pid = child.pid
    if (pid !== undefined) running.add(pid)
    const held: Buffer[] = []
    const take = (chunk: Buffer) =>
      shared ? held.push(chunk) : out.write(chunk)
    child.stdout?.on('data', take)
    child.stderr?.on('data', take)
    const stop = () => {
      if (pid !== undefined) killGroup(pid)
    }
    signal.addEventListener('abort', stop, { once: true })
    child.on('error', (error) => {
      signal.removeEventListener('abort', stop)
      resolve({ ok: false, why: `${command.label} did not start: ${error}` })
    })
    child.on('close', (code, killedBy) => {
      if (pid !== undefined) running.delete(pid)
      signal.removeEventListener('abort', stop)
      if (shared) out.write(`\n── ${command.label} ──\n${Buffer.concat(held)}`)
      if (code === 0) resolve({ ok: true })
      else
        resolve({
          ok: false,
          why: `${command.label} ${killedBy ? `was stopped (${killedBy})` : `exited with ${code}`}`,
        })
    })
  })
}

async function runPhase(phase: Phase, out: Out): Promise<Outcome> {
  const controller = new AbortController()
  let hung = false
  const timer = setTimeout(() => {
    hung = true
    controller.abort()
  }, phase.limitMinutes * 60_000)
  const queue = [...phase.commands]
  const shared = phase.commands.length > 1
  const failures: string[] = []
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      if (controller.signal.aborted) return
      const outcome = await run(next, shared, controller.signal, out)
      // A command this phase stopped (another failed, or the bound passed) is not a failure
      // of its own.
      if (!outcome.ok && !controller.signal.aborted) {
        failures.push(outcome.why ?? next.label)
        // One failed check fails the phase: the others stop rather than be waited for.
        controller.abort()
      }
    }
  }
  await Promise.all(
    Array.from(
      { length: Math.min(phase.concurrency ?? 1, queue.length) },
      worker,
    ),
  )
  clearTimeout(timer)
  if (hung)
    return {
      ok: false,
      why: `still running after ${phase.limitMinutes} min: stopped as hung (${phase.commands.map((c) => c.label).join(', ')})`,
    }
  return failures.length === 0
    ? { ok: true }
    : { ok: false, why: failures.join('; ') }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** Runs `phases` in order and prints the timings under `title`; stops at the first failure. */
export async function runPhases(
  title: string,
  phases: Phase[],
  out: Out = process.stdout,
): Promise<RunResult> {
  const timings: Timing[] = []
  const started = performance.now()
  let failed: string | undefined
  for (const phase of phases) {
    out.write(`\n━━ ${phase.name} ━━\n`)
    const at = performance.now()
    const outcome = await runPhase(phase, out)
    timings.push({
      name: phase.name,
      ms: performance.now() - at,
      ok: outcome.ok,
    })
    if (!outcome.ok) {
      failed = `${phase.name}: ${outcome.why}`
      break
    }
  }

  out.write(`\n${title}, phase by phase:\n`)
  for (const { name, ms, ok } of timings)
    out.write(
      `  ${name.padEnd(14)} ${seconds(ms).padStart(9)}${ok ? '' : '  FAILED'}\n`,
    )
  out.write(
    `  ${'total'.padEnd(14)} ${seconds(performance.now() - started).padStart(9)}\n`,
  )
  if (failed) out.write(`\n${title} failed in ${failed}\n`)
  return { ok: failed === undefined, timings, failed }
}
