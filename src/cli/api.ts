// The CLI's one HTTP client: the team REST API with a Bearer token (none for the login's own
// calls). A refusal becomes a CliError carrying the server's own message, never the token.
import { CliError } from './errors.ts'

export type Api = <T>(
  method: string,
  path: string,
  body?: unknown,
) => Promise<T>

/** An answer as it came: its status and parsed body (the login's poll reads 202s). */
export type Raw = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: unknown }>

/** Requests that hang (a server gone quiet) fail rather than wait for ever. */
const TIMEOUT_MS = 30_000

export function createApi(url: string, token?: string): Api {
  const raw = createRaw(url, token)
  return async <T>(method: string, path: string, body?: unknown) => {
    const answer = await raw(method, path, body)
    if (answer.status >= 400)
      throw new CliError(
        `${method} ${path} failed (${answer.status}): ${messageOf(answer.body)}`,
      )
    return answer.body as T
  }
}

export function createRaw(url: string, token?: string): Raw {
  return async (method, path, body) => {
    let response: Response
    try {
      response = await fetch(`${url}${path}`, {
        method,
        headers: {
          ...(token && { authorization: `Bearer ${token}` }),
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      })
    } catch (error) {
      throw new CliError(
        `Could not reach ${url}: ${error instanceof Error ? error.message : String(error)}`,
      )
    }
    return { status: response.status, body: parseJson(await response.text()) }
  }
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? null : JSON.parse(text)
  } catch {
    return text
  }
}

function messageOf(body: unknown): string {
  if (body && typeof body === 'object' && 'message' in body)
    return String((body as { message: unknown }).message)
  return typeof body === 'string'
    ? body.slice(0, 500) || 'no message'
    : 'no message'
}
