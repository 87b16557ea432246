// What the build makes a browser download: the entry script (what the first paint waits for)
// and everything the service worker precaches (what an install fetches), read from dist/.
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { z } from 'zod'

export type EntrySizes = {
  entry: string
  /** The entry chunk alone, gzip at zlib's default level (Vite reports the same). */
  entryGzip: number
  /** Entry plus the chunks index.html modulepreloads, each gzipped on its own. */
  preloads: number
  withPreloadsGzip: number
}

export type PrecacheSize = { entries: number; bytes: number }

const attribute = (tag: string, name: string) =>
  new RegExp(`\\s${name}="([^"]+)"`).exec(tag)?.[1]

export function entrySizes(dist: string): EntrySizes {
  const html = readFileSync(join(dist, 'index.html'), 'utf8')
  const tags = html.match(/<(script|link)\b[^>]*>/g) ?? []
  const entry = tags
    .filter((t) => t.startsWith('<script') && / type="module"/.test(t))
    .map((t) => attribute(t, 'src'))[0]
  if (!entry) throw new Error('dist/index.html has no module script')
  const preloads = tags
    .filter((t) => / rel="modulepreload"/.test(t))
    .flatMap((t) => attribute(t, 'href') ?? [])
  const gzip = (path: string) =>
    gzipSync(readFileSync(join(dist, path))).byteLength
  const entryGzip = gzip(entry)
  return {
    entry,
    entryGzip,
    preloads: preloads.length,
    withPreloadsGzip: preloads.reduce((sum, p) => sum + gzip(p), entryGzip),
  }
}

const manifestSchema = z
  .array(z.object({ url: z.string(), revision: z.string().nullable() }))
  .min(1)

/** The list workbox injected into dist/sw.js (self.__WB_MANIFEST), summed from the files. */
export function precacheSize(dist: string): PrecacheSize {
  const sw = readFileSync(join(dist, 'sw.js'), 'utf8')
  const list = /\[\{"(?:revision|url)":[\s\S]*?\}\]/.exec(sw)?.[0]
  if (!list) throw new Error('no precache manifest found in dist/sw.js')
  const entries = manifestSchema.parse(JSON.parse(list))
  const bytes = entries.reduce(
    (sum, e) => sum + statSync(join(dist, e.url)).size,
    0,
  )
  return { entries: entries.length, bytes }
}
