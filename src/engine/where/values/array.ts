// Array literals as array_in reads and array_out writes them: `{1,2,NULL}`, `{"a b",""}`,
// nested braces for more dimensions, and `[lb:ub]=` when a lower bound is not 1.
import { MAX_ARRAY_DIMS } from '../limits.ts'
import type { Datum, PgArray, Value } from './value.ts'

type Node = { raw: string; quoted: boolean } | Node[]

class Reader {
  at = 0
  constructor(readonly s: string) {}
  peek(): string | undefined {
    return this.s[this.at]
  }
  skipSpace(): void {
    while (/\s/.test(this.s[this.at] ?? '')) this.at++
  }
}

function readElement(r: Reader, depth: number): Node | undefined {
  r.skipSpace()
  if (r.peek() === '{') return readList(r, depth + 1)
  if (r.peek() === '"') {
    r.at++
    let raw = ''
    for (;;) {
      const c = r.s[r.at++]
      if (c === undefined) return undefined
      if (c === '"') return { raw, quoted: true }
      if (c === '\\') {
        const next = r.s[r.at++]
        if (next === undefined) return undefined
        raw += next
      } else raw += c
    }
  }
  let raw = ''
  let escaped = false
  let trimTo = 0 // unescaped trailing whitespace is not part of the element
  for (;;) {
    const c = r.peek()
    if (c === undefined || c === '{' || c === '"') return undefined
    if (c === ',' || c === '}') break
    r.at++
    if (c === '\\') {
      const next = r.s[r.at++]
      if (next === undefined) return undefined
      raw += next
      escaped = true
      trimTo = raw.length
    } else {
      raw += c
      if (!/\s/.test(c)) trimTo = raw.length
    }
  }
  raw = raw.slice(0, trimTo)
  if (raw === '' && !escaped) return undefined
  return { raw, quoted: escaped }
}

/** A `{...}` list at nesting `depth` (1 for the outermost); MAXDIM bounds the recursion. */
function readList(r: Reader, depth: number): Node[] | undefined {
  if (depth > MAX_ARRAY_DIMS) return undefined
  r.at++ // '{'
  const items: Node[] = []
  r.skipSpace()
  if (r.peek() === '}') {
    r.at++
    return items
  }
  for (;;) {
    const item = readElement(r, depth)
    if (item === undefined) return undefined
    items.push(item)
    r.skipSpace()
    const c = r.s[r.at++]
    if (c === '}') return items
    if (c !== ',') return undefined
  }
}

type Leaf = { raw: string; quoted: boolean }

/** Flattens the nested lists in row-major order, checking that they are rectangular. */
function flatten(
  list: Node[],
  depth: number,
  dims: number[],
  out: Leaf[],
): boolean {
  if (dims[depth] !== list.length) return false
  const inner = depth + 1 < dims.length
  for (const item of list) {
    if (Array.isArray(item) !== inner) return false
    if (!Array.isArray(item)) out.push(item)
    else if (!flatten(item, depth + 1, dims, out)) return false
  }
  return true
}

/** Parses an array literal, each element with `parse` (undefined if either is malformed). */
export function parseArray(
  text: string,
  parse: (s: string) => Value | undefined,
): PgArray | undefined {
  const r = new Reader(text)
  r.skipSpace()
  const bounds: [number, number][] = []
  while (r.peek() === '[') {
    const m = /^\[\s*(-?\d+)\s*:\s*(-?\d+)\s*\]/.exec(r.s.slice(r.at))
    if (!m) return undefined
    bounds.push([Number(m[1]), Number(m[2])])
    r.at += m[0].length
    r.skipSpace()
  }
  if (bounds.length > 0) {
    if (r.peek() !== '=') return undefined
    r.at++
    r.skipSpace()
  }
  if (r.peek() !== '{') return undefined
  const list = readList(r, 1)
  r.skipSpace()
  if (!list || r.at !== r.s.length) return undefined
  if (list.length === 0)
    return bounds.length ? undefined : { dims: [], lbounds: [], items: [] }
  const dims: number[] = []
  for (let cur: Node | undefined = list; Array.isArray(cur); cur = cur[0]) {
    if (cur.length === 0) return undefined
    dims.push(cur.length)
  }
  const flat: Leaf[] = []
  if (!flatten(list, 0, dims, flat)) return undefined
  const sizeMismatch = bounds.some(([lb, ub], i) => ub - lb + 1 !== dims[i])
  if (bounds.length && (bounds.length !== dims.length || sizeMismatch))
    return undefined
  const items: Datum[] = []
  for (const node of flat) {
    if (!node.quoted && node.raw.toUpperCase() === 'NULL') items.push(null)
    else {
      const v = parse(node.raw)
      if (v === undefined) return undefined
      items.push(v)
    }
  }
  const lbounds = bounds.length ? bounds.map(([lb]) => lb) : dims.map(() => 1)
  return { dims, lbounds, items }
}

function quote(s: string): string {
  const needs = s === '' || s.toUpperCase() === 'NULL' || /[{}",\\\s]/.test(s)
  return needs ? `"${s.replace(/["\\]/g, (c) => `\\${c}`)}"` : s
}

export function formatArray(a: PgArray, format: (v: Value) => string): string {
  if (a.items.length === 0) return '{}'
  let i = 0
  const level = (d: number): string => {
    const parts: string[] = []
    for (let k = 0; k < (a.dims[d] ?? 0); k++) {
      if (d + 1 < a.dims.length) parts.push(level(d + 1))
      else {
        const v = a.items[i++]
        parts.push(v === null || v === undefined ? 'NULL' : quote(format(v)))
      }
    }
    return `{${parts.join(',')}}`
  }
  const decorated = a.lbounds.some((lb) => lb !== 1)
  const prefix = decorated
    ? `${a.lbounds.map((lb, d) => `[${lb}:${lb + (a.dims[d] ?? 0) - 1}]`).join('')}=`
    : ''
  return prefix + level(0)
}
