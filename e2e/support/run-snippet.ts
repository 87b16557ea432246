// Runs a copied TypeScript snippet with tsx, as an app would run it, and hands back what it
// logged first. The snippet's text is not changed: a wrapper module catches its console.log.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const WRAPPER = `console.log = (...values: unknown[]) => {
  process.stdout.write(
    JSON.stringify(values, (_k, v) => (typeof v === 'bigint' ? String(v) : v)) + '\\n',
  )
}
await import('./snippet.ts')
`

/** The arguments of the snippet's first console.log, as JSON reads them back. */
export async function firstLogOf(code: string): Promise<unknown[]> {
  // Inside the repository, so the snippet's imports resolve to its node_modules.
  mkdirSync('.tmp', { recursive: true })
  const dir = mkdtempSync(join('.tmp', 'snippet-'))
  try {
    writeFileSync(join(dir, 'snippet.ts'), code)
    writeFileSync(join(dir, 'run.ts'), WRAPPER)
    const child = spawn(process.execPath, ['--import', 'tsx', 'run.ts'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    try {
      let output = ''
      for await (const chunk of child.stdout) {
        output += String(chunk)
        const lines = output.split('\n')
        if (lines.length > 1) return JSON.parse(lines[0] ?? '') as unknown[]
      }
      throw new Error(`the snippet exited (${child.exitCode}) logging nothing`)
    } finally {
      // It syncs live, so it would run on: one answer is all the test needs.
      child.kill()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
