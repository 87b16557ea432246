// The phase runner behind `npm test` and `npm run test:changed` (scripts/test/phases.ts), with
// real processes: phases in order with their timings, a failure that ends the run and names
// its phase, a hang stopped at its bound with every process it started, and commands side by
// side whose output never interleaves.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { runPhases, type Phase } from '../../scripts/test/phases.ts'

const node = (script: string) => [process.execPath, '-e', script]

function collect() {
  let text = ''
  return {
    out: { write: (chunk: string | Uint8Array) => (text += chunk.toString()) },
    text: () => text,
  }
}

/** Whether `pid` still runs: a killed process nobody has reaped yet (a zombie) does not. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

describe('runPhases', () => {
  it('runs the phases in order and ends with the time of each and the total', async () => {
    const { out, text } = collect()
    const result = await runPhases(
      'checks',
      [
        {
          name: 'first',
          commands: [{ label: 'a', argv: node('console.log("one")') }],
          limitMinutes: 1,
        },
        {
          name: 'second',
          commands: [{ label: 'b', argv: node('console.log("two")') }],
          limitMinutes: 1,
        },
      ],
      out,
    )
    expect(result.ok).toBe(true)
    expect(result.timings.map((t) => t.name)).toEqual(['first', 'second'])
    expect(text()).toMatch(/one[\s\S]*two/)
    expect(text()).toMatch(
      /checks, phase by phase:\n {2}first +\d+\.\d s\n {2}second +\d+\.\d s\n {2}total +\d+\.\d s\n$/,
    )
  })

  it('stops at a failed phase, names it, and runs nothing after it', async () => {
    const { out, text } = collect()
    const result = await runPhases(
      'checks',
      [
        {
          name: 'lint',
          commands: [{ label: 'eslint', argv: node('process.exit(3)') }],
          limitMinutes: 1,
        },
        {
          name: 'after',
          commands: [{ label: 'never', argv: node('console.log("ran")') }],
          limitMinutes: 1,
        },
      ],
      out,
    )
    expect(result.ok).toBe(false)
    expect(result.failed).toBe('lint: eslint exited with 3')
    expect(text()).not.toContain('ran')
    expect(text()).toContain('lint')
    expect(text()).toMatch(/lint +\d+\.\d s {2}FAILED/)
    expect(text()).toContain('checks failed in lint: eslint exited with 3')
  })

  it('stops a phase past its bound, with the processes it started, and says it hung', async () => {
    const { out, text } = collect()
    // A command that starts a child of its own and never ends: the child's pid is printed.
    const hang = node(`
      const { spawn } = require('node:child_process')
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
      console.log('child ' + child.pid)
      setInterval(() => {}, 1000)
    `)
    // 6 s: time enough for both processes to start on a loaded machine.
    const phase: Phase = {
      name: 'e2e',
      commands: [{ label: 'playwright', argv: hang }],
      limitMinutes: 0.1,
    }
    const result = await runPhases('checks', [phase], out)
    expect(result.ok).toBe(false)
    expect(result.failed).toBe(
      'e2e: still running after 0.1 min: stopped as hung (playwright)',
    )
    const child = Number(/child (\d+)/.exec(text())?.[1])
    expect(child).toBeGreaterThan(0)
    await expect.poll(() => alive(child)).toBe(false)
  }, 30_000)

  it('runs commands side by side, each one’s output printed whole, and fails on any', async () => {
    const { out, text } = collect()
    const lines = (label: string) =>
      node(
        `let n = 0; const t = setInterval(() => { console.log('${label}' + n); if (++n === 5) { clearInterval(t) } }, 5)`,
      )
    const result = await runPhases(
      'checks',
      [
        {
          name: 'static checks',
          commands: [
            { label: 'typecheck', argv: lines('x') },
            { label: 'lint', argv: lines('y') },
          ],
          concurrency: 2,
          limitMinutes: 1,
        },
      ],
      out,
    )
    expect(result.ok).toBe(true)
    expect(text()).toMatch(/── typecheck ──\nx0\nx1\nx2\nx3\nx4\n/)
    expect(text()).toMatch(/── lint ──\ny0\ny1\ny2\ny3\ny4\n/)

    const failing = await runPhases(
      'checks',
      [
        {
          name: 'static checks',
          commands: [
            { label: 'typecheck', argv: node('process.exit(2)') },
            { label: 'format', argv: node('') },
          ],
          concurrency: 2,
          limitMinutes: 1,
        },
      ],
      collect().out,
    )
    expect(failing.failed).toBe('static checks: typecheck exited with 2')
  })
})
