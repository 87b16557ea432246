// A browser's cookie store for in-process requests (tough-cookie): keeps what responses set,
// honours Path, expiry and deletion, and sends matching cookies back.
import { Cookie, CookieJar as Store } from 'tough-cookie'

/** The Set-Cookie for `name` in a response, if it set one. */
export function setCookieFor(
  response: Response,
  name: string,
): Cookie | undefined {
  return response.headers
    .getSetCookie()
    .map((header) => Cookie.parse(header))
    .find((cookie) => cookie?.key === name)
}

export class CookieJar {
  private readonly store = new Store()

  /** Keeps what `response`, the answer to a request for `url`, set. */
  keep(response: Response, url: string): void {
    for (const header of response.headers.getSetCookie())
      this.store.setCookieSync(header, url)
  }

  /** The value of the cookie named `name`, whatever its path. */
  get(name: string): string | undefined {
    return this.store.serializeSync()?.cookies.find((c) => c.key === name)
      ?.value as string | undefined
  }

  /** The Cookie header a browser would send to `url`, or undefined when none match. */
  header(url: string): string | undefined {
    return this.store.getCookieStringSync(url) || undefined
  }
}
