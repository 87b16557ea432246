// A clause with subqueries in disjunctive normal form, as Electric decomposes it: NOT pushed
// down to the leaves (De Morgan), AND distributed over OR, each disjunct's literals given
// positions of their own (a leaf in two disjuncts holds two). Clients learn per row which
// positions hold (`active_conditions`) and which dependency values it hangs on (`tags`);
// a subquery's result moving then flips one position for every row tagged with the value.
//
// Three-valued logic survives the rewrite: a clause is TRUE exactly when some disjunct has
// every literal TRUE, so "position holds" means "literal IS TRUE", NULL counting as not.
import { compile, matcher, type Eval } from './evaluate.ts'
import { fail } from './analyze/context.ts'
import type { Expr } from './tree.ts'
import type { Dnf, Position } from './types.ts'

/** Electric's bound: a clause whose normal form has more disjuncts is refused. */
const MAX_DISJUNCTS = 100

type Literal = { expr: Expr; negated: boolean }

function containsSublink(e: Expr): boolean {
  switch (e.kind) {
    case 'sublink':
      return true
    case 'const':
    case 'param':
    case 'column':
      return false
    case 'cast':
    case 'not':
    case 'null-test':
    case 'bool-test':
      return containsSublink(e.arg)
    case 'in':
      return containsSublink(e.left) || e.items.some(containsSublink)
    case 'array':
      return e.elements.some(containsSublink)
    case 'subscript':
      return (
        containsSublink(e.arg) ||
        e.indices.some(
          (i) =>
            (i.lower !== undefined && containsSublink(i.lower)) ||
            (i.upper !== undefined && containsSublink(i.upper)),
        )
      )
    default:
      return e.args.some(containsSublink)
  }
}

function tooComplex(n: number): never {
  fail(
    `WHERE clause too complex for DNF decomposition (${n} disjuncts exceeds limit of ${MAX_DISJUNCTS})`,
  )
}

// Every combination of one disjunct from each list, the first list's choice outermost.
function product(lists: Literal[][][]): Literal[][] {
  let out: Literal[][] = [[]]
  for (let i = lists.length - 1; i >= 0; i--) {
    const next: Literal[][] = []
    for (const d of lists[i] as Literal[][])
      for (const rest of out) next.push([...d, ...rest])
    if (next.length > MAX_DISJUNCTS) tooComplex(next.length)
    out = next
  }
  return out
}

function toDnf(e: Expr, negated: boolean): Literal[][] {
  if (e.kind === 'not') return toDnf(e.arg, !negated)
  if (e.kind === 'and' || e.kind === 'or') {
    const parts = e.args.map((a) => toDnf(a, negated))
    // OR, or AND under NOT: the disjuncts side by side; else every combination.
    if ((e.kind === 'or') !== negated) {
      const all = parts.flat()
      if (all.length > MAX_DISJUNCTS) tooComplex(all.length)
      return all
    }
    return product(parts)
  }
  if (e.kind !== 'sublink' && containsSublink(e))
    fail('`IN (SELECT ...)` can only be combined with AND, OR and NOT')
  return [[{ expr: e, negated }]]
}

function not(value: Eval): Eval {
  return (row) => {
    const v = value(row)
    return v === null ? null : !v
  }
}

/** The normal form of a clause that has subqueries; refuses what Electric refuses. */
export function decompose(expr: Expr, dependencies: number): Dnf {
  const positions: Position[] = []
  const disjuncts: number[][] = []
  const polarity = new Map<number, boolean>()
  for (const literals of toDnf(expr, false)) {
    const ids: number[] = []
    for (const { expr: leaf, negated } of literals) {
      const sublink =
        leaf.kind === 'sublink'
          ? { dep: leaf.dep, columns: leaf.columns }
          : null
      if (sublink) {
        const seen = polarity.get(sublink.dep)
        if (seen !== undefined && seen !== negated)
          fail(
            'a subquery dependency cannot be used with both positive and negative polarity in the same filter',
          )
        polarity.set(sublink.dep, negated)
      }
      ids.push(positions.length)
      positions.push({
        expr: leaf,
        negated,
        sublink,
        holds: matcher(negated ? not(compile(leaf)) : compile(leaf)),
      })
    }
    disjuncts.push(ids)
  }
  const negatedDeps = Array.from(
    { length: dependencies },
    (_, i) => polarity.get(i) ?? false,
  )
  return { positions, disjuncts, negatedDeps }
}
