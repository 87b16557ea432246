// What the Shape Explorer says when a request fails: the server's own words for a refusal (a
// where clause naming no column reads as that, not as the answer's JSON), and that the server
// cannot be reached when it cannot, rather than the browser's bare "Failed to fetch".
import { FetchError } from '@electric-sql/client'
import { ApiError } from '../../lib/api.ts'
import { codeMessage } from '../sources/source-api.ts'

export const OFFLINE_TABLES =
  'Offline: the tables show once the server can be reached'
export const OFFLINE_SHAPE =
  'Offline: the shape is created once the server can be reached'

/** fetch found no server (a TypeError); an abort or a refusal is something else. */
const unreachable = (error: unknown) => error instanceof TypeError

const parsed = (text: string | undefined): unknown => {
  try {
    return text ? JSON.parse(text) : undefined
  } catch {
    return undefined
  }
}

/** Each field's messages (`where: column "x" does not exist`), else the body's message. */
function refusalText(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null
  const { message, errors } = body as { message?: unknown; errors?: unknown }
  if (typeof errors === 'object' && errors !== null) {
    const lines = Object.entries(errors).flatMap(([field, messages]) =>
      Array.isArray(messages)
        ? messages.map((m) => `${field}: ${String(m)}`)
        : [],
    )
    if (lines.length) return lines.join('; ')
  }
  return typeof message === 'string' && message ? message : null
}

/** 'Error creating shape: …' for a refused shape; 'Failed to fetch shape' else. */
export function shapeErrorText(error: Error): string {
  if (!(error instanceof FetchError)) return 'Failed to fetch shape'
  const text =
    refusalText(error.json ?? parsed(error.text)) ??
    (error.text || error.message)
  return `Error creating shape: ${text}`
}

/** A refused count as 'Code {status}: {body}'; offline said so; the fixed fallback else. */
export const countErrorText = (error: unknown) =>
  error instanceof ApiError
    ? codeMessage(error)
    : unreachable(error)
      ? OFFLINE_SHAPE
      : 'Failed to execute query'

/** A source's tables that could not be read. */
export const tablesErrorText = (error: unknown) =>
  unreachable(error) ? OFFLINE_TABLES : codeMessage(error)
