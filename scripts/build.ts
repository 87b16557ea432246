// `npm run build`: the local store's seed, then Vite, then the server bundle, then a stamp of
// what it was built from.
// With --if-changed (`npm start`) it first checks that stamp and skips a build already current.
// --out-dir puts the build elsewhere than dist/ (the reproducibility test builds twice).
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { hashBuildInputs, isBuildCurrent, STAMP_FILE } from './build/inputs.ts'
import { buildServer } from './build/server.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const { values } = parseArgs({
  options: {
    'if-changed': { type: 'boolean', default: false },
    'out-dir': { type: 'string', default: 'dist' },
  },
})
const outDir = resolve(root, values['out-dir'])
const inputsHash = hashBuildInputs(root)

if (values['if-changed'] && isBuildCurrent(outDir, inputsHash)) {
  console.log(`${values['out-dir']} is current for the sources: build skipped`)
  process.exit(0)
}

function run(bin: string, args: string[]) {
  const { status } = spawnSync(join(root, 'node_modules', '.bin', bin), args, {
    cwd: root,
    stdio: 'inherit',
  })
  if (status !== 0) process.exit(status ?? 1)
}

run('tsx', ['scripts/build-local-seed.ts'])
run('vite', ['build', '--outDir', outDir, '--emptyOutDir'])
await buildServer(root, outDir)
writeFileSync(join(outDir, STAMP_FILE), `${inputsHash}\n`)
