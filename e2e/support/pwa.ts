// Helpers for the PWA spec: waiting for the service worker, reading its caches, reading PNGs.
import { expect, type Page } from '@playwright/test'
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SERVER_DIR, STAMP_FILE } from '../../scripts/build/inputs.ts'

/** Waits until a service worker controls the page (the first one claims it without a reload). */
export async function waitForControl(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined))
  await expect
    .poll(() =>
      page.evaluate(() => navigator.serviceWorker.controller !== null),
    )
    .toBe(true)
}

/** Every URL in every Cache Storage cache of the origin, by cache name. */
export function cachedUrls(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(async () => {
    const byName: Record<string, string[]> = {}
    for (const name of await caches.keys()) {
      const requests = await (await caches.open(name)).keys()
      byName[name] = requests.map((request) => request.url)
    }
    return byName
  })
}

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url))

/**
 * The files of the build the browser may load: all but source maps, the worker itself and the
 * stamp of the build's inputs (for `npm start`, not the browser).
 */
export function builtFiles(): string[] {
  return readdirSync(DIST, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      `${entry.parentPath}/${entry.name}`
        .slice(DIST.length)
        .replace(/^\/?/, '/'),
    )
    .filter(
      (path) =>
        !path.endsWith('.map') &&
        path !== '/sw.js' &&
        path !== `/${STAMP_FILE}` &&
        // The server's own bundle sits in dist/ but is never served (platform/http/spa.ts).
        !path.startsWith(`/${SERVER_DIR}/`),
    )
    .sort()
}

/**
 * Deploys a next release of the worker, as a release does: new bytes in dist/sw.js (the same
 * code plus a comment). Playwright cannot route the browser's own update check of a worker
 * script, so the file on the server changes. Returns the undo.
 */
export function releaseNextWorker(): () => void {
  const file = join(DIST, 'sw.js')
  const original = readFileSync(file)
  // Whole files put in place by a rename, as a deploy would: a fetch never reads half of one.
  const replace = (bytes: Buffer) => {
    writeFileSync(`${file}.next`, bytes)
    renameSync(`${file}.next`, file)
  }
  replace(Buffer.concat([original, Buffer.from('\n// the next release\n')]))
  return () => replace(original)
}

const PNG_SIGNATURE = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a,
])

/** Width and height from a PNG's header chunk (IHDR, right after the signature). */
export function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE), 'PNG signature').toBe(true)
  expect(bytes.subarray(12, 16).toString('latin1'), 'first chunk').toBe('IHDR')
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
}
