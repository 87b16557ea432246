// Serves the built dashboard: hashed assets cached for good, every client route gets index.html.
import { serveStatic } from '@hono/node-server/serve-static'
import { existsSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { Hono } from 'hono'
import type { AppEnv } from './context.ts'

// Paths that belong to the server; a miss there is a 404, never the app's HTML.
const SERVER_PREFIXES = ['/api/', '/v1/', '/ingest/']

export function mountSpa(app: Hono<AppEnv>, distDir: string): void {
  const indexFile = join(distDir, 'index.html')
  if (!existsSync(indexFile)) {
    app.get('*', (c) =>
      c.text('The dashboard is not built yet: run "npm run build".', 503),
    )
    return
  }
  const indexHtml = readFileSync(indexFile, 'utf8')
  const root = relative(process.cwd(), distDir) || '.'
  app.use('/assets/*', async (c, next) => {
    await next()
    if (c.res.ok)
      c.header('cache-control', 'public, max-age=31536000, immutable')
  })
  app.use(
    '*',
    serveStatic({
      root,
      // index.html is served below with no-cache so a new release is picked up.
      rewriteRequestPath: (path) => (path === '/' ? '/__no_index__' : path),
    }),
  )
  app.get('*', (c) => {
    const path = c.req.path
    if (
      SERVER_PREFIXES.some((p) => path.startsWith(p) || path === p.slice(0, -1))
    )
      return c.json({ message: 'Not found' }, 404)
    c.header('cache-control', 'no-cache')
    return c.html(indexHtml)
  })
}
