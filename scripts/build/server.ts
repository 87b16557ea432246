// The server bundle: src/server/index.ts and what it imports, in one ESM file run by `node`
// (`npm start`, the image, the tests that spawn the server), so production needs no
// TypeScript loader. Packages stay outside it, loaded from node_modules: the image installs
// production dependencies only, so the build fails on a package that is not one.
import { build } from 'esbuild'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { SERVER_DIR } from './inputs.ts'

/** The bundle's entry from the project root, after `npm run build` (or buildServer). */
export const SERVER_BUNDLE = `dist/${SERVER_DIR}/index.js`

/** The admin tool, bundled beside it: the image has no TypeScript loader to run its sources. */
export const ADMIN_BUNDLE = `dist/${SERVER_DIR}/admin.js`

/** The standalone engine (`npm run engine`), for the image's `engine` target. */
export const ENGINE_BUNDLE = `dist/${SERVER_DIR}/engine.js`

/** `pg`, `@hono/node-server` from an import path such as `@hono/node-server/serve-static`. */
const packageName = (path: string) =>
  path
    .split('/')
    .slice(0, path.startsWith('@') ? 2 : 1)
    .join('/')

/** How each bundle is made; tests/integration/cli.test.ts makes the CLI's alone with it. */
export const BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  packages: 'external',
  // Not minified and without a source map: a stack trace's names read as in the sources.
  logLevel: 'warning',
} as const

export async function buildServer(root: string, outDir: string) {
  const { metafile } = await build({
    ...BUNDLE_OPTIONS,
    absWorkingDir: root,
    entryPoints: {
      index: 'src/server/index.ts',
      admin: 'src/server/admin/cli.ts',
      engine: 'src/engine/cli.ts',
      // The `sluice` CLI (bin/sluice.js runs it): all the packed package holds besides bin/.
      cli: 'src/cli/index.ts',
    },
    outdir: join(outDir, SERVER_DIR),
    metafile: true,
  })
  const { dependencies = {} } = JSON.parse(
    readFileSync(join(root, 'package.json'), 'utf8'),
  ) as { dependencies?: Record<string, string> }
  const missing = new Set(
    Object.values(metafile.outputs)
      .flatMap((output) => output.imports)
      .filter(
        (imported) => imported.external && !imported.path.startsWith('node:'),
      )
      .map((imported) => packageName(imported.path))
      .filter((name) => !(name in dependencies)),
  )
  if (missing.size > 0)
    throw new Error(
      `the server imports packages that are not production dependencies: ${[...missing].join(', ')}`,
    )
}
