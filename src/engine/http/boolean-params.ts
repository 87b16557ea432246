// Boolean parameters as Electric casts them where it does not read them more loosely: `true` or
// `1`, `false` or `0`; empty (or blank) is the default; anything else is a 400 `is invalid`.
// (A shape GET's `live` and `live_sse` are read more loosely: request.ts parseLive.)
import type { ProtocolErrors } from './protocol-errors.ts'

/** The value, null when absent or empty (the caller's default), or 'invalid'. */
export function castBoolean(text: string | null): boolean | null | 'invalid' {
  if (text === null || text.trim() === '') return null
  if (text === 'true' || text === '1') return true
  if (text === 'false' || text === '0') return false
  return 'invalid'
}

/** Records `is invalid` under each of `names` whose value is not a boolean. */
export function checkBooleans(
  query: URLSearchParams,
  names: readonly string[],
  errors: ProtocolErrors,
): void {
  for (const name of names)
    if (castBoolean(query.get(name)) === 'invalid')
      errors[name] = ['is invalid']
}
