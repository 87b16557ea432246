// `npm run faults [-- F1 F3 ...]`: runs the fault scenarios (default: all) against
// real processes and prints a table of rows lost, duplicated and the time to recover, then a
// `FAULTS_JSON {...}` line. Exits 1 when any scenario lost or duplicated a row, or failed.
// The browser scenarios need the dashboard built: it is built first when stale.
import { spawnSync } from 'node:child_process'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startEmbeddedPostgres } from '../src/server/platform/db/embedded-postgres.ts'
import { FAULTS } from '../tests/faults/index.ts'
import type { FaultResult } from '../tests/faults/scenario.ts'
import { scratchDir } from '../tests/faults/support.ts'

const wanted = process.argv.slice(2).map((a) => a.toUpperCase())
const unknown = wanted.filter((id) => !FAULTS.some((f) => f.id === id))
if (unknown.length) {
  console.error(
    `unknown scenario(s): ${unknown.join(', ')}; known: ${FAULTS.map((f) => f.id).join(' ')}`,
  )
  process.exit(2)
}
const chosen = wanted.length
  ? FAULTS.filter((f) => wanted.includes(f.id))
  : FAULTS

type Row = {
  id: string
  title: string
  status: 'ok' | 'FAIL' | 'not built'
  result?: FaultResult
  error?: string
}

// The browser scenarios (F2, F9, F10, F11) serve the built dashboard from dist/: built here when
// its sources changed since the last build, as `npm start` does.
if (chosen.some((f) => 'browser' in f && f.browser)) {
  console.log('— the browser scenarios serve dist/: building it if stale')
  const build = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/build.ts', '--if-changed'],
    { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: 'inherit' },
  )
  if (build.status !== 0) {
    console.error('the dashboard build failed (npm run build says why)')
    process.exit(1)
  }
}

const root = await scratchDir('run')
const server = await startEmbeddedPostgres({ dir: join(root, 'pg') })
const rows: Row[] = []
try {
  for (const fault of chosen) {
    if ('notBuilt' in fault) {
      rows.push({ id: fault.id, title: fault.title, status: 'not built' })
      continue
    }
    console.log(`— ${fault.id}: ${fault.title}`)
    const log = (line: string) => console.log(`  ${line}`)
    try {
      const result = await fault.run({
        adminUrl: server.url,
        quick: false,
        log,
      })
      const ok =
        result.lost === 0 &&
        result.duplicated === 0 &&
        result.recoverMs !== null
      rows.push({
        id: fault.id,
        title: fault.title,
        status: ok ? 'ok' : 'FAIL',
        result,
      })
    } catch (error) {
      rows.push({
        id: fault.id,
        title: fault.title,
        status: 'FAIL',
        error: (error as Error).message,
      })
    }
  }
} finally {
  await server.stop()
  await rm(root, { recursive: true, force: true })
}

const table = [
  ['id', 'title', 'lost', 'duplicated', 'recover', 'ok'],
  ...rows.map((r) => [
    r.id,
    r.title,
    r.result ? String(r.result.lost) : '-',
    r.result ? String(r.result.duplicated) : '-',
    r.result?.recoverMs != null
      ? `${(r.result.recoverMs / 1000).toFixed(1)} s`
      : '-',
    r.status,
  ]),
]
const widths = table[0]!.map((_, i) =>
  Math.max(...table.map((line) => line[i]!.length)),
)
console.log()
for (const line of table)
  console.log(line.map((cell, i) => cell.padEnd(widths[i]!)).join('  '))
for (const r of rows) {
  if (r.error) console.log(`${r.id} failed: ${r.error}`)
  else if (r.result?.notes) console.log(`${r.id}: ${r.result.notes}`)
}
console.log(`FAULTS_JSON ${JSON.stringify({ faults: rows })}`)
process.exit(rows.some((r) => r.status === 'FAIL') ? 1 : 0)
