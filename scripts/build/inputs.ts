// What the build (the dashboard and the server bundle) is made from, as one hash, and whether a
// build directory was made from the sources as they are now. `npm start` rebuilds only when
// they differ.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, sep } from 'node:path'

/** Files and directories (relative to the project root) whose contents the build reads. */
const BUILD_INPUTS = [
  'src/app',
  'src/server',
  'src/engine',
  'src/shared',
  'sw',
  'public',
  'migrations/client',
  'index.html',
  'vite.config.ts',
  'scripts/build-local-seed.ts',
  'scripts/seed',
  'scripts/build',
  'scripts/build.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.base.json',
  'tsconfig.app.json',
  'tsconfig.node.json',
  'tsconfig.sw.json',
]

// Written by the build itself, so they follow from the inputs above: the seed archive
// (scripts/build-local-seed.ts) and the route tree (generated from src/app/routes by Vite).
const BUILD_OUTPUTS = new Set([
  'public/local-store-seed.tar.gz',
  'src/app/routeTree.gen.ts',
])

/** Environment variables that change what the build writes (NODE_ENV: the libraries' code). */
const BUILD_ENV = ['SLUICE_SOURCEMAPS', 'SOURCE_DATE_EPOCH', 'NODE_ENV']

/** Where the server bundle goes under a build's directory (server.ts); its entry is index.js. */
export const SERVER_DIR = 'server'

/** The stamp a finished build leaves in its directory: the hash of what it was built from. */
export const STAMP_FILE = '.build-inputs-sha256'

function filesUnder(root: string, path: string): string[] {
  const full = join(root, path)
  if (!existsSync(full)) return []
  if (!statSync(full).isDirectory()) return [path]
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .map((name) => join(path, name))
    .filter((name) => statSync(join(root, name)).isFile())
}

export function hashBuildInputs(
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const files = BUILD_INPUTS.flatMap((path) => filesUnder(root, path))
    .map((path) => path.split(sep).join('/'))
    .filter((path) => !BUILD_OUTPUTS.has(path))
    .sort()
  const hash = createHash('sha256')
  // Lengths before contents, so no two different trees can write the same stream.
  for (const path of files) {
    const contents = readFileSync(join(root, path))
    hash.update(`${path}\0${contents.length}\0`).update(contents)
  }
  for (const name of BUILD_ENV) hash.update(`${name}=${env[name] ?? ''}\0`)
  return hash.digest('hex')
}

/** True when `outDir` holds a finished build of the inputs that hash to `inputsHash`. */
export function isBuildCurrent(outDir: string, inputsHash: string): boolean {
  const stamp = join(outDir, STAMP_FILE)
  const built = [
    'index.html',
    join(SERVER_DIR, 'index.js'),
    join(SERVER_DIR, 'admin.js'),
    join(SERVER_DIR, 'engine.js'),
    STAMP_FILE,
  ]
  if (!built.every((file) => existsSync(join(outDir, file)))) return false
  return readFileSync(stamp, 'utf8').trim() === inputsHash
}
