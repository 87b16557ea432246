// Which paths are the dashboard's client routes. The server answers them with index.html and the
// service worker with its cached copy; a server path or a file name never gets the app's HTML.

/** Paths the server owns: their answers, and their misses, are the server's. */
const SERVER_PATH_PREFIXES = ['/api', '/v1', '/ingest'] as const

function isServerPath(pathname: string): boolean {
  return SERVER_PATH_PREFIXES.some(
    (prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`),
  )
}

/**
 * A client route: not a server path, and not a file name. A missing `/sw.js` or a chunk of an
 * older build must be a 404: as HTML, the browser would try to run a web page as a script.
 */
export function isAppRoute(pathname: string): boolean {
  const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1)
  return !isServerPath(pathname) && !lastSegment.includes('.')
}
