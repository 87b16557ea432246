import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'
import { quietPgliteNotices } from './scripts/build/pglite-notices.ts'
import { earlyStore } from './scripts/build/early-store.ts'
import { webAppManifest } from './scripts/build/manifest.ts'
import { precache } from './scripts/build/precache.ts'

// In development Vite serves the app and forwards server paths to `npm run serve` (see
// scripts/dev.ts). The Host header is kept so the server's same-origin check sees Vite's origin.
const serverUrl = `http://localhost:${process.env.SLUICE_SERVER_PORT ?? 5133}`
const forward = { target: serverUrl, changeOrigin: false }

export default defineConfig({
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: 'src/app/routes',
      generatedRouteTree: 'src/app/routeTree.gen.ts',
    }),
    react(),
    earlyStore(),
    VitePWA({
      // Our own worker (sw/sw.ts, built to dist/sw.js) with the precache list injected.
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      // One self-contained classic script: no module workers needed in any browser.
      injectManifest: { ...precache, rollupFormat: 'iife' },
      // The app registers the worker itself, after first paint (src/app/lib/service-worker.ts).
      injectRegister: false,
      manifest: webAppManifest,
      // The precache glob already takes every icon; listing them again only doubles entries.
      includeManifestIcons: false,
      // No worker in development: a precached shell would fight Vite's hot reload.
      devOptions: { enabled: false },
    }),
  ],
  server: {
    proxy: { '/api': forward, '/v1': forward, '/ingest': forward },
  },
  // PGlite loads its wasm and data relative to its own module: keep it out of pre-bundling.
  optimizeDeps: { exclude: ['@electric-sql/pglite'] },
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    // Maps publish the whole source to anyone who asks: only when a build asks for them.
    sourcemap: process.env.SLUICE_SOURCEMAPS === 'true',
    // PGlite's `eval` and `node:module` notices are harmless (scripts/build/pglite-notices.ts).
    rolldownOptions: { onLog: quietPgliteNotices },
  },
})
