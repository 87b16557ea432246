// Serves the built dashboard: hashed assets cached for good, every other file revalidated, every
// client route gets index.html.
import { serveStatic } from '@hono/node-server/serve-static'
import { existsSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { Hono } from 'hono'
import { isAppRoute } from '../../../shared/app-routes.ts'
import type { AppEnv } from './context.ts'

const FOREVER = 'public, max-age=31536000, immutable'

/** The built index.html, or null before the first build. */
export function readIndexHtml(distDir: string): string | null {
  const indexFile = join(distDir, 'index.html')
  return existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : null
}

export function mountSpa(
  app: Hono<AppEnv>,
  distDir: string,
  indexHtml: string | null,
): void {
  if (indexHtml == null) {
    app.get('*', (c) =>
      c.text('The dashboard is not built yet: run "npm run build".', 503),
    )
    return
  }
  const root = relative(process.cwd(), distDir) || '.'
  app.use('*', async (c, next) => {
    await next()
    if (!c.res.ok || c.res.headers.has('cache-control')) return
    // Vite names what it puts under /assets/ by content hash. Every other file keeps its name
    // from release to release: the service worker and the manifest above all, which the
    // browser must fetch again to find a new release.
    c.header(
      'cache-control',
      c.req.path.startsWith('/assets/') ? FOREVER : 'no-cache',
    )
  })
  app.use(
    '*',
    serveStatic({
      root,
      // index.html is served below with no-cache so a new release is picked up. The server
      // bundle (dist/server/, scripts/build/server.ts) shares the build directory but is not
      // the dashboard's to serve. The path here is the decoded one serveStatic would read
      // (`.` and `..` resolved, `//` refused), so no spelling dodges the prefix (spa.test.ts).
      rewriteRequestPath: (path) =>
        path === '/' || path.startsWith('/server/') ? '/__no_index__' : path,
    }),
  )
  app.get('*', (c) => {
    if (!isAppRoute(c.req.path)) return c.json({ message: 'Not found' }, 404)
    c.header('cache-control', 'no-cache')
    return c.html(indexHtml)
  })
}
