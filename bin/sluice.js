#!/usr/bin/env node
// `npx sluice …`: the built CLI (dist/server/cli.js, made by `npm run build` and before packing),
// or, in a checkout that was not built, its TypeScript through tsx (a dev dependency there).
import { existsSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const built = join(root, 'dist', 'server', 'cli.js')
if (existsSync(built)) {
  const { main } = await import(built)
  process.exitCode = await main(process.argv.slice(2))
} else {
  const tsx = join(root, 'node_modules', '.bin', 'tsx')
  const result = spawnSync(
    tsx,
    [join(root, 'src', 'cli', 'process.ts'), ...process.argv.slice(2)],
    { stdio: 'inherit' },
  )
  process.exitCode = result.status ?? 1
}
