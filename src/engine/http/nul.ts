// Postgres text cannot hold U+0000: a where clause's string or a param holding one fails the
// shape's snapshot (22021, which answered 503 with Postgres's words). A NUL in any parameter,
// the query's or a subset body's, is refused first, named as Electric names a parameter's errors.
import { NUL_REFUSED, type ProtocolErrors } from './protocol-errors.ts'
import {
  isSubsetKey,
  SUBSET_KEYS,
  type SubsetErrors,
} from './subset-request.ts'

const REFUSED = [NUL_REFUSED]

function refuseSubset(errors: ProtocolErrors, key: string): boolean {
  const name = key.startsWith('params[') ? 'params' : key
  if (!isSubsetKey(name)) return false
  const subset = (errors.subset ?? {}) as SubsetErrors
  subset[name] = REFUSED
  errors.subset = subset
  return true
}

function refuse(errors: ProtocolErrors, name: string) {
  if (name.startsWith('subset__') && refuseSubset(errors, name.slice(8))) return
  const param = /^params\[\d+\]$/.test(name) ? 'params' : name
  errors[param.replaceAll('\0', '\\u0000')] = REFUSED
}

/** Records a NUL in any parameter over what else was found wrong with it. */
export function refuseNul(
  query: URLSearchParams,
  body: Record<string, unknown> | null,
  errors: ProtocolErrors,
): void {
  query.forEach((value, name) => {
    if (value.includes('\0') || name.includes('\0')) refuse(errors, name)
  })
  if (!body) return
  const nested = body.subset
  // Where readSubset reads the subset from (subset-request.ts).
  const subset =
    nested && typeof nested === 'object' && !Array.isArray(nested)
      ? (nested as typeof body)
      : body
  // Params are values of their own, checked where they are listed (subset-request.ts).
  for (const key of SUBSET_KEYS) {
    const value = subset[key]
    if (typeof value === 'string' && value.includes('\0'))
      refuseSubset(errors, key)
  }
}
