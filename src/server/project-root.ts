// The project's root directory, found from this module's own file: src/server/ when the server
// runs from its sources (tsx, tests), dist/server/ when it runs from the bundle (`npm start`,
// the image). Paths built relative to import.meta.url would differ between the two.
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

function rootAbove(dir: string): string {
  // The first directory up with a package.json: the repository's, or /app in the image.
  if (existsSync(join(dir, 'package.json'))) return dir
  const up = dirname(dir)
  if (up === dir) throw new Error('no package.json above the server code')
  return rootAbove(up)
}

export const PROJECT_ROOT = rootAbove(dirname(fileURLToPath(import.meta.url)))
