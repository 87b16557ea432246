import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

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
  ],
  server: {
    proxy: { '/api': forward, '/v1': forward, '/ingest': forward },
  },
  // PGlite loads its wasm and data relative to its own module: keep it out of pre-bundling.
  optimizeDeps: { exclude: ['@electric-sql/pglite'] },
  worker: { format: 'es' },
  build: { outDir: 'dist', sourcemap: true },
})
