// Just enough of a browser's cookie store for in-process requests: keeps what responses set,
// honours Path and deletion (Max-Age=0), and sends matching cookies back.

export type SetCookie = {
  name: string
  value: string
  /** Attribute names lower-cased; flags (HttpOnly, Secure) map to true. */
  attributes: Map<string, string | true>
}

function parseSetCookie(header: string): SetCookie {
  const [pair = '', ...parts] = header.split(';')
  const eq = pair.indexOf('=')
  const attributes = new Map<string, string | true>()
  for (const part of parts) {
    const [key = '', ...rest] = part.trim().split('=')
    attributes.set(key.toLowerCase(), rest.length > 0 ? rest.join('=') : true)
  }
  return {
    name: pair.slice(0, eq).trim(),
    value: decodeURIComponent(pair.slice(eq + 1).trim()),
    attributes,
  }
}

/** The Set-Cookie for `name` in a response, if it set one. */
export function setCookieFor(
  response: Response,
  name: string,
): SetCookie | undefined {
  return response.headers
    .getSetCookie()
    .map(parseSetCookie)
    .find((c) => c.name === name)
}

type Stored = { value: string; path: string }

export class CookieJar {
  private readonly cookies = new Map<string, Stored>()

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const cookie = parseSetCookie(header)
      const maxAge = cookie.attributes.get('max-age')
      const path = cookie.attributes.get('path')
      if (maxAge !== undefined && Number(maxAge) <= 0)
        this.cookies.delete(cookie.name)
      else
        this.cookies.set(cookie.name, {
          value: cookie.value,
          path: typeof path === 'string' ? path : '/',
        })
    }
  }

  set(name: string, value: string, path = '/'): void {
    this.cookies.set(name, { value, path })
  }

  get(name: string): string | undefined {
    return this.cookies.get(name)?.value
  }

  /** The Cookie header a browser would send to `url`, or undefined when none match. */
  header(url: string): string | undefined {
    const { pathname } = new URL(url)
    const matching = [...this.cookies].filter(
      ([, c]) =>
        c.path === '/' ||
        pathname === c.path ||
        pathname.startsWith(`${c.path.replace(/\/$/, '')}/`),
    )
    if (matching.length === 0) return undefined
    return matching
      .map(([name, c]) => `${name}=${encodeURIComponent(c.value)}`)
      .join('; ')
  }
}
