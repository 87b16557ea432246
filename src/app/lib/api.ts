// The one way the app talks to the REST API: same origin, cookies included, JSON both ways,
// answers parsed with zod, failures as ApiError carrying the status and the server's message.
import type { z } from 'zod'
import { reportUnreachable } from './connectivity.ts'

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown = undefined,
  ) {
    super(message)
  }
}

async function messageOf(
  response: Response,
): Promise<{ text: string; body: unknown }> {
  const text = await response.text()
  try {
    const body: unknown = JSON.parse(text)
    const message =
      body && typeof body === 'object' && 'message' in body
        ? String(body.message)
        : text
    return { text: message, body }
  } catch {
    return { text: text || response.statusText, body: text }
  }
}

export async function api<T>(
  path: string,
  schema: z.ZodType<T>,
  init: { method?: string; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  let response: Response
  try {
    response = await fetch(path, {
      method: init.method ?? 'GET',
      credentials: 'include',
      signal: init.signal,
      headers:
        init.body === undefined
          ? undefined
          : { 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    })
  } catch (error) {
    // The request never reached the server (offline, or the server is down).
    if (!init.signal?.aborted) reportUnreachable()
    throw error
  }
  if (!response.ok) {
    const { text, body } = await messageOf(response)
    throw new ApiError(response.status, text, body)
  }
  // No Content (a DELETE): there is no body to read.
  if (response.status === 204) return schema.parse(undefined)
  return schema.parse(await response.json())
}
