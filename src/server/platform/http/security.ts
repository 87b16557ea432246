// Headers every response carries, and the cross-site rules for state-changing requests.
import { createHash } from 'node:crypto'
import { createMiddleware } from 'hono/factory'
import { secureHeaders } from 'hono/secure-headers'
import { isHttps, ownOrigin, type AppEnv } from './context.ts'

const policy = (inlineScripts: string[]) => ({
  defaultSrc: ["'self'"],
  // PGlite compiles WebAssembly; nothing in Sluice needs eval. The built index.html's own
  // inline script (it starts the local store early, scripts/build/early-store.ts) is allowed
  // by its hash, and no other inline script is.
  scriptSrc: ["'self'", "'wasm-unsafe-eval'", ...inlineScripts],
  // MUI (emotion) injects style elements at run time.
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  // The service worker (/sw.js) and the web app manifest come from our own origin; 'self' is
  // all they need.
  workerSrc: ["'self'", 'blob:'],
  manifestSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
})

/** CSP sources for the inline scripts of an HTML page: one 'sha256-…' each. */
export function inlineScriptSources(html: string): string[] {
  const scripts = html.matchAll(
    /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g,
  )
  return [...scripts].map(
    ([, body]) =>
      `'sha256-${createHash('sha256')
        .update(body ?? '')
        .digest('base64')}'`,
  )
}

/** `inlineScripts`: the sources inlineScriptSources gave for the page the server serves. */
export const securityHeaders = (inlineScripts: string[] = []) => {
  // Built once each: HSTS is the only header that depends on the request (PUBLIC_URL's scheme).
  const headers = (https: boolean) =>
    secureHeaders({
      contentSecurityPolicy: policy(inlineScripts),
      strictTransportSecurity: https
        ? 'max-age=63072000; includeSubDomains'
        : false,
      xFrameOptions: 'DENY',
      referrerPolicy: 'strict-origin-when-cross-origin',
      crossOriginEmbedderPolicy: false,
    })
  const overHttps = headers(true)
  const overHttp = headers(false)
  return createMiddleware<AppEnv>(async (c, next) =>
    (isHttps(c.var.deps.env, c.req.url) ? overHttps : overHttp)(c, next),
  )
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Cross-site request forgery guard: a state-changing request must say it comes from our own
 * origin, and any body it carries must be JSON (which a plain HTML form cannot send).
 */
export const sameOriginOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (SAFE_METHODS.has(c.req.method)) return next()
  const origin = c.req.header('origin')
  if (origin !== ownOrigin(c.var.deps.env, c.req.url))
    return c.json({ message: 'Cross-origin request refused' }, 403)
  const type = c.req.header('content-type')
  const hasBody =
    Number(c.req.header('content-length') ?? 0) > 0 ||
    c.req.header('transfer-encoding') !== undefined ||
    type !== undefined
  if (hasBody && !/^application\/json\b/i.test(type ?? ''))
    return c.json({ message: 'Request body must be application/json' }, 403)
  return next()
})

/**
 * For the requests exempt from sameOriginOnly because scripts make them (they send no Origin),
 * in local mode: a server on the user's machine reaches what no web page can (localhost, the
 * private network), so a page the user visits must not make it act. Browsers mark every
 * cross-origin state-changing request with Origin, and most with Sec-Fetch-Site besides.
 */
export const noCrossSite = createMiddleware<AppEnv>(async (c, next) => {
  if (SAFE_METHODS.has(c.req.method)) return next()
  const origin = c.req.header('origin')
  const site = c.req.header('sec-fetch-site')
  const crossSite =
    (origin !== undefined && origin !== ownOrigin(c.var.deps.env, c.req.url)) ||
    (site !== undefined && site !== 'same-origin' && site !== 'none')
  if (crossSite) return c.json({ message: 'Cross-origin request refused' }, 403)
  return next()
})

/** One line per request, path only: query strings can hold OAuth codes and states. */
export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  const started = performance.now()
  await next()
  const ms = Number((performance.now() - started).toFixed(1))
  c.var.deps.log.debug('request', {
    method: c.req.method,
    path: c.req.path,
    status: c.res.status,
    duration_ms: ms,
  })
})
