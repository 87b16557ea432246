// String operators: || (text with text, or with any non-array value printed as by ::text)
// and LIKE/ILIKE with their negations; ILIKE folds ASCII only, under COLLATE "C". The
// function forms like()/notlike() are in functions.ts.
import { category, isArray, UNKNOWN, type PgType } from '../pg-types.ts'
import type { Impl, Signature } from '../tree.ts'
import { charge } from '../budget.ts'
import { likeMatcher } from '../values/text.ts'
import { textOf } from './casts.ts'
import { binary, op } from './sig.ts'

const LIKE: Record<string, { sql: string; fold: boolean; negated: boolean }> = {
  '~~': { sql: 'LIKE', fold: false, negated: false },
  '!~~': { sql: 'NOT LIKE', fold: false, negated: true },
  '~~*': { sql: 'ILIKE', fold: true, negated: false },
  '!~~*': { sql: 'NOT ILIKE', fold: true, negated: true },
}

// Patterns are nearly always constants: keep the last compiled one.
export function like(fold: boolean, negated: boolean): Impl {
  let pattern: string | undefined
  let matches: (s: string) => boolean = () => false
  return binary((s: string, p: string) => {
    if (p !== pattern) {
      matches = likeMatcher(p, fold)
      pattern = p
    }
    return matches(s) !== negated
  })
}

/** Concatenation is cheap in V8, but what it builds is paid for when read: charge its length. */
function joined(a: string, b: string): string {
  charge(a.length + b.length)
  return a + b
}

function concatenations(argTypes: PgType[]): Signature[] {
  const out = [
    op(
      '||',
      ['text', 'text'],
      'text',
      binary((a: string, b: string) => joined(a, b)),
    ),
  ]
  // text || anynonarray and anynonarray || text, for the non-string types present.
  for (const t of new Set(argTypes)) {
    if (t === UNKNOWN || isArray(t) || category(t) === 'S') continue
    const text = textOf(t)
    out.push(
      op(
        '||',
        ['text', t],
        'text',
        binary((a: string, b) => joined(a, text(b))),
      ),
    )
    out.push(
      op(
        '||',
        [t, 'text'],
        'text',
        binary((a, b: string) => joined(text(a), b)),
      ),
    )
  }
  return out
}

export function textOperators(name: string, argTypes: PgType[]): Signature[] {
  if (argTypes.length !== 2) return []
  if (name === '||') return concatenations(argTypes)
  const l = LIKE[name]
  if (!l) return []
  return (['text', 'bpchar', 'name'] as const).map((t) =>
    op(l.sql, [t, 'text'], 'bool', like(l.fold, l.negated), {
      collateC: l.fold,
    }),
  )
}
