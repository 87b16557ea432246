// Reading a shape over plain HTTP (no client library), as metrics tests do to make known load.

export type ShapePosition = { handle?: string; offset: string }

/**
 * Reads a shape from `from` until an answer says it is up to date; answers where it ended.
 * `shapeUrl` builds the request's URL from the shape's params and the position.
 */
export async function readShapeToEnd(
  shapeUrl: (params: Record<string, string>) => string,
  where: Record<string, string>,
  from: ShapePosition,
): Promise<ShapePosition> {
  let at = from
  for (;;) {
    const response = await fetch(shapeUrl({ ...where, ...at }))
    if (response.status !== 200)
      throw new Error(
        `the shape answered ${response.status}: ${await response.text()}`,
      )
    await response.text()
    at = {
      handle: response.headers.get('electric-handle') ?? '',
      offset: response.headers.get('electric-offset') ?? '',
    }
    if (response.headers.has('electric-up-to-date')) return at
  }
}

/** A live request waiting at `at` (a live client while it waits); `end()` aborts it. */
export function waitLive(
  shapeUrl: (params: Record<string, string>) => string,
  at: ShapePosition,
): { end(): Promise<void> } {
  const aborter = new AbortController()
  const live = fetch(
    shapeUrl({ ...at, live: 'true' } as Record<string, string>),
    {
      signal: aborter.signal,
    },
  ).catch(() => null)
  return {
    async end() {
      aborter.abort()
      await live
    },
  }
}
