// A POST's JSON body (a subset request), read with a bound: a body past MAX_BODY_BYTES is
// refused with 413 before it is all buffered. Errors read as Electric's.
import { jsonResponse } from './responses.ts'

/** A subset's where and params fit many times over (the where itself stops at 64 KiB). */
export const MAX_BODY_BYTES = 1024 * 1024

const tooLarge = () => jsonResponse(413, { error: 'Request body too large' })

async function readBounded(raw: Request): Promise<Buffer | null> {
  const declared = Number(raw.headers.get('content-length') ?? '0')
  if (declared > MAX_BODY_BYTES) return null
  if (!raw.body) return Buffer.alloc(0)
  const reader = raw.body.getReader()
  const parts: Uint8Array[] = []
  let size = 0
  while (true) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {})
      return null
    }
    parts.push(value)
  }
  return Buffer.concat(parts)
}

/** The body as an object ({} when empty), or the answer refusing it. */
export async function readJsonBody(
  raw: Request,
): Promise<Record<string, unknown> | Response> {
  const bytes = await readBounded(raw)
  if (!bytes) return tooLarge()
  const text = bytes.toString('utf8')
  if (text.trim() === '') return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return jsonResponse(400, {
      error: 'Invalid JSON in request body',
      details: (error as Error).message,
    })
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return jsonResponse(400, { error: 'Request body must be a JSON object' })
  return parsed as Record<string, unknown>
}
