// Overload resolution and common types, following Postgres's rules (parse_oper.c,
// parse_func.c func_select_candidate, parse_coerce.c select_common_type) over our catalog.
import {
  canCoerceImplicitly,
  category,
  isArray,
  isEnum,
  isPreferred,
  UNKNOWN,
  type PgType,
} from './pg-types.ts'

type Candidate = { args: PgType[] }

export type Resolution<C> = { ok: C } | { error: 'none' | 'ambiguous' }

const keepBest = <C>(list: C[], score: (c: C) => number): C[] => {
  const best = Math.max(...list.map(score))
  return list.filter((c) => score(c) === best)
}

// The unknown positions each take one category: string if any candidate accepts one there,
// else the only category on offer; with several, give up (Postgres: "not unique").
function resolveUnknowns<C extends Candidate>(
  args: PgType[],
  list: C[],
): C[] | undefined {
  let kept = list
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== UNKNOWN) continue
    let slot: string | undefined
    let preferred = false
    for (const c of kept) {
      const t = c.args[i] as PgType
      const cat = category(t)
      if (slot === undefined || cat === slot) {
        slot = cat
        preferred ||= isPreferred(t)
      } else if (cat === 'S') {
        slot = cat
        preferred = isPreferred(t)
      } else if (slot !== 'S') return undefined
    }
    kept = kept.filter((c) => {
      const t = c.args[i] as PgType
      return category(t) === slot && (!preferred || isPreferred(t))
    })
  }
  return kept
}

/** Picks the candidate Postgres would, or says why none fits. */
export function selectCandidate<C extends Candidate>(
  args: PgType[],
  candidates: C[],
  binaryOperator: boolean,
): Resolution<C> {
  const known = args.filter((t) => t !== UNKNOWN)
  // An operator with one unknown side: first try the other side's type for both.
  const exactArgs =
    binaryOperator && known.length === 1
      ? args.map(() => known[0] as PgType)
      : args
  const exact = candidates.find((c) =>
    c.args.every((t, i) => t === exactArgs[i]),
  )
  if (exact) return { ok: exact }
  let list = candidates.filter(
    (c) =>
      c.args.length === args.length &&
      c.args.every((t, i) => canCoerceImplicitly(args[i] as PgType, t)),
  )
  if (list.length === 0) return { error: 'none' }
  list = keepBest(list, (c) => c.args.filter((t, i) => t === args[i]).length)
  list = keepBest(
    list,
    (c) =>
      c.args.filter((t, i) => {
        const input = args[i] as PgType
        return (
          input !== UNKNOWN &&
          (t === input || (isPreferred(t) && category(t) === category(input)))
        )
      }).length,
  )
  if (list.length === 1) return { ok: list[0] as C }
  const unknowns = args.length - known.length
  if (unknowns > 0) {
    const resolved = resolveUnknowns(args, list)
    if (resolved && resolved.length > 0) list = resolved
    if (list.length === 1) return { ok: list[0] as C }
    // Last resort: if the known inputs share one type, treat the unknowns as that type.
    const only = known[0]
    if (only !== undefined && known.every((t) => t === only)) {
      const fits = list.filter((c) =>
        c.args.every(
          (t, i) => args[i] !== UNKNOWN || canCoerceImplicitly(only, t),
        ),
      )
      if (fits.length === 1) return { ok: fits[0] as C }
    }
  }
  return { error: 'ambiguous' }
}

/**
 * select_common_type: the type that IN lists, COALESCE, GREATEST/LEAST and ARRAY[] convert
 * their inputs to; text when all are unknown; undefined when the types cannot be matched.
 * Enums mixed with anything else (unknown literals included) meet at text: the snapshot
 * compares enum labels as text, so no literal ever needs the enum's type name.
 */
export function commonType(types: PgType[]): PgType | undefined {
  const known = types.filter((t) => t !== UNKNOWN)
  let common = known[0]
  if (common === undefined) return 'text'
  for (const t of known.slice(1)) {
    if (t === common) continue
    if (category(t) !== category(common)) return undefined
    if (
      !isPreferred(common) &&
      canCoerceImplicitly(common, t) &&
      !canCoerceImplicitly(t, common)
    )
      common = t
  }
  if (isEnum(common) && types.some((t) => t !== common))
    common = isArray(common) ? 'text[]' : 'text'
  const target = common
  return types.every((t) => canCoerceImplicitly(t, target)) ? target : undefined
}
