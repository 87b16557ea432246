// What the service worker precaches from the build output: the app shell and PGlite's files, so
// the dashboard opens offline. Source maps stay out; the plugin leaves out the worker itself.
import type { InjectManifestOptions } from 'workbox-build'

export const precache = {
  // One pattern, so a build without PGlite or the seed yet does not warn of an empty one:
  // the shell (html, js, css, icons), PGlite's WebAssembly and file-system image (wasm, data),
  // and the local store's prebuilt database (public/local-store-seed.tar.gz). The plugin adds
  // manifest.webmanifest itself.
  globPatterns: ['**/*.{html,js,css,png,svg,ico,wasm,data,tar.gz}'],
  // PGlite's .wasm and .data are about 15 MB together; workbox refuses anything over 2 MiB by
  // default, and vite-plugin-pwa turns that refusal into a build error.
  maximumFileSizeToCacheInBytes: 32 * 1024 * 1024,
} satisfies Partial<InjectManifestOptions>
