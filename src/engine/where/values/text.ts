// Text semantics shared by the string types: code-point order (what COLLATE "C" gives on a
// UTF-8 database), bpchar's ignored trailing spaces, ASCII-only case mapping, and LIKE.
import { charge } from '../budget.ts'
import { EvalError } from '../errors.ts'

/** memcmp order of the UTF-8 bytes, i.e. code point order (not UTF-16 unit order). */
export function compareText(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i)
    let y = b.charCodeAt(i)
    if (x === y) continue
    // Surrogates (D800-DFFF) encode code points above FFFF: move them above E000-FFFF.
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000
    }
    return x < y ? -1 : 1
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1
}

/** bpchar compares and converts to text without its trailing spaces. */
export function trimBpchar(s: string): string {
  let end = s.length
  while (end > 0 && s.charCodeAt(end - 1) === 0x20) end--
  return s.slice(0, end)
}

/** lower()/upper() under COLLATE "C": only ASCII letters change. */
export function asciiLower(s: string): string {
  charge(s.length)
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase())
}

export function asciiUpper(s: string): string {
  charge(s.length)
  return s.replace(/[a-z]+/g, (m) => m.toUpperCase())
}

/** name input keeps at most NAMEDATALEN - 1 = 63 bytes, cut at a character boundary. */
export function truncateName(s: string): string {
  let bytes = 0
  let out = ''
  for (const ch of s) {
    bytes += Buffer.byteLength(ch)
    if (bytes > 63) break
    out += ch
  }
  return out
}

type Token = { kind: 'char'; cp: string } | { kind: 'one' } | { kind: 'any' }

function tokenize(pattern: string): Token[] {
  const tokens: Token[] = []
  const chars = Array.from(pattern)
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string
    if (c === '\\') {
      const next = chars[++i]
      if (next === undefined)
        throw new EvalError('LIKE pattern must not end with escape character')
      tokens.push({ kind: 'char', cp: next })
    } else if (c === '%') {
      // Consecutive %s match the same as one.
      if (tokens.at(-1)?.kind !== 'any') tokens.push({ kind: 'any' })
    } else if (c === '_') tokens.push({ kind: 'one' })
    else tokens.push({ kind: 'char', cp: c })
  }
  return tokens
}

// Steps charged at once when a match outruns its free, linear allowance, and the budget
// units per step (a step costs several nanoseconds).
const LIKE_CHUNK = 65_536
const LIKE_STEP_COST = 16

/**
 * Matches code points against tokens, backtracking only to the last `%` (enough for LIKE).
 * That is O(text × pattern) at worst (`%aaaa…b` against `aaaa…`): steps beyond a linear
 * allowance are charged to the evaluation's budget, so a pathological pattern fails instead
 * of stalling.
 */
function matchTokens(s: string[], p: Token[]): boolean {
  let si = 0
  let pi = 0
  let starP = -1
  let starS = 0
  let free = 2 * (s.length + p.length)
  while (si < s.length) {
    if (--free < 0) {
      charge(LIKE_CHUNK * LIKE_STEP_COST)
      free = LIKE_CHUNK
    }
    const t = p[pi]
    if (t && (t.kind === 'one' || (t.kind === 'char' && t.cp === s[si]))) {
      si++
      pi++
    } else if (t?.kind === 'any') {
      starP = pi++
      starS = si
    } else if (starP >= 0) {
      pi = starP + 1
      si = ++starS
    } else return false
  }
  while (p[pi]?.kind === 'any') pi++
  return pi === p.length
}

/** Compiles a LIKE (or, with `fold`, ILIKE) pattern; backslash escapes the next character. */
export function likeMatcher(
  pattern: string,
  fold: boolean,
): (s: string) => boolean {
  const tokens = tokenize(fold ? asciiLower(pattern) : pattern)
  return (s) => matchTokens(Array.from(fold ? asciiLower(s) : s), tokens)
}
