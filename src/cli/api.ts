// The CLI's one HTTP client: the team REST API with a Bearer token. A refusal becomes a
// CliError carrying the server's own message, never the token.
import { CliError } from './errors.ts'

export type Api = <T>(
  method: string,
  path: string,
  body?: unknown,
) => Promise<T>

/** Requests that hang (a server gone quiet) fail rather than wait for ever. */
const TIMEOUT_MS = 30_000

export function createApi(url: string, token: string): Api {
  return async <T>(method: string, path: string, body?: unknown) => {
    let response: Response
    try {
      response = await fetch(`${url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
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
    const text = await response.text()
    const parsed = parseJson(text)
    if (!response.ok)
      throw new CliError(
        `${method} ${path} failed (${response.status}): ${messageOf(parsed, text)}`,
      )
    return parsed as T
  }
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? null : JSON.parse(text)
  } catch {
    return text
  }
}

function messageOf(parsed: unknown, text: string): string {
  if (parsed && typeof parsed === 'object' && 'message' in parsed)
    return String((parsed as { message: unknown }).message)
  return text.slice(0, 500) || 'no message'
}
