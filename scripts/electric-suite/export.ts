// Electric's TypeScript client package (its source and its tests) taken out of a git directory
// of Electric's repo, with what its tests import installed from the npm registry. Both are kept
// under the temp dir, keyed by the commit, so a second run of the same commit reuses them.
import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const PACKAGE = 'packages/typescript-client'
const DEV_ENV = 'packages/sync-service/.env.dev'

// What the client's tests and its vitest config import, typecheck included (vitest runs the
// `*.test-d.ts` files through TypeScript). Versions come from the package's own manifest.
const TEST_PACKAGES = [
  'vitest',
  'jsdom',
  'vitest-localstorage-mock',
  'pg',
  '@types/pg',
  'uuid',
  '@types/uuid',
  'fast-check',
  'cache-control-parser',
  '@microsoft/fetch-event-source',
  'typescript',
]

// The settings Electric's own dev server runs its client tests with, and the values used when
// a commit's dev environment file does not name one.
const DEV_SETTINGS: Readonly<Record<string, string>> = {
  ELECTRIC_CACHE_MAX_AGE: '1',
  ELECTRIC_CACHE_STALE_AGE: '3',
  ELECTRIC_SHAPE_CHUNK_BYTES_THRESHOLD: '10000',
}

function git(repo: string, args: string[]): Buffer {
  return execFileSync('git', ['-C', repo, ...args], {
    maxBuffer: 64 * 1024 * 1024,
  })
}

export function resolveCommit(repo: string, ref: string): string {
  return git(repo, ['rev-parse', '--verify', `${ref}^{commit}`])
    .toString()
    .trim()
}

/** The dev settings as that commit's `.env.dev` sets them (defaults for what it lacks). */
export function devSettings(
  repo: string,
  commit: string,
): Record<string, string> {
  let text = ''
  try {
    text = git(repo, ['show', `${commit}:${DEV_ENV}`]).toString()
  } catch {
    // An older or newer layout: the defaults stand.
  }
  const settings = { ...DEV_SETTINGS }
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Z_]+)\s*=\s*(\S*)/.exec(line)
    if (match?.[1] && match[1] in settings) settings[match[1]] = match[2] ?? ''
  }
  return settings
}

export type ExportedClient = {
  commit: string
  /** The client package's directory (vitest runs here). */
  packageDir: string
  /** Holds the package at its repo path, the root tsconfig it extends, and node_modules. */
  root: string
}

/** `git archive` of one tree into `dir` (a bare git dir has no work tree to copy). */
function extractTree(repo: string, treeish: string, dir: string) {
  const archive = spawnSync(
    'git',
    ['-C', repo, 'archive', '--format=tar', treeish],
    {
      maxBuffer: 512 * 1024 * 1024,
    },
  )
  if (archive.status !== 0)
    throw new Error(
      `git archive ${treeish} failed: ${archive.stderr.toString()}`,
    )
  const tar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout })
  if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr.toString()}`)
}

export async function exportClient(
  repo: string,
  commit: string,
): Promise<ExportedClient> {
  const root = join(tmpdir(), 'sluice-electric-suite', commit)
  const packageDir = join(root, PACKAGE)
  const exported = join(root, '.exported')
  if (!existsSync(exported)) {
    await rm(root, { recursive: true, force: true })
    await mkdir(packageDir, { recursive: true })
    extractTree(repo, `${commit}:${PACKAGE}`, packageDir)
    // The package's tsconfig extends the repo's root one.
    await writeFile(
      join(root, 'tsconfig.base.json'),
      git(repo, ['show', `${commit}:tsconfig.base.json`]),
    )
    // Vite serves files from the workspace root down; this marks the root as one, so the
    // installed packages beside the package are within it.
    await writeFile(
      join(root, 'pnpm-workspace.yaml'),
      `packages: ['packages/*']\n`,
    )
    await writeFile(exported, `${commit}\n`)
  }
  await installTestPackages(root, packageDir)
  return { commit, packageDir, root }
}

/**
 * Installs the test packages beside the package (in the root, which node's resolution reaches
 * by walking up), unless the same list was installed there before.
 */
async function installTestPackages(root: string, packageDir: string) {
  const manifest = JSON.parse(
    await readFile(join(packageDir, 'package.json'), 'utf8'),
  ) as {
    dependencies?: Record<string, string>
    devDependencies?: Record<string, string>
  }
  const ranges = { ...manifest.dependencies, ...manifest.devDependencies }
  const devDependencies = Object.fromEntries(
    TEST_PACKAGES.map((name) => [name, ranges[name] ?? 'latest']),
  )
  const wanted = JSON.stringify(
    { name: 'electric-client-suite', private: true, devDependencies },
    null,
    2,
  )
  const stamp = join(root, '.installed')
  const hash = createHash('sha256').update(wanted).digest('hex')
  if (
    existsSync(stamp) &&
    (await readFile(stamp, 'utf8')) === hash &&
    existsSync(join(root, 'node_modules', '.bin', 'vitest'))
  )
    return
  await writeFile(join(root, 'package.json'), wanted)
  console.log(`installing the client's test packages in ${root}`)
  const install = spawnSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--no-package-lock'],
    { cwd: root, stdio: 'inherit' },
  )
  if (install.status !== 0)
    throw new Error('npm install of the test packages failed')
  await writeFile(stamp, hash)
}

/**
 * Whether a test file talks to the server: not a type test, and not among the files Electric
 * runs without one (its `vitest.unit.config.ts` lists them).
 */
export async function serverTestFiles(
  packageDir: string,
): Promise<(file: string) => boolean> {
  const config = await readFile(
    join(packageDir, 'vitest.unit.config.ts'),
    'utf8',
  ).catch(() => '')
  const unit = new Set(config.match(/test\/[\w./-]+\.test\.ts/g) ?? [])
  return (file) => !file.endsWith('.test-d.ts') && !unit.has(file)
}
