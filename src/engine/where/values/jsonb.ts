// jsonb values: parsed (numbers kept exact as numeric), canonical as jsonb stores them (object
// keys sorted shorter-first then bytewise, last duplicate wins), printed as jsonb_out does, and
// compared structurally with numeric equality, so `1.0` equals `1` as in Postgres.
import { compareText } from './text.ts'
import {
  compareNumeric,
  formatNumeric,
  parseNumeric,
  type Decimal,
} from './numeric.ts'
import { MAX_JSON_DEPTH } from '../limits.ts'

export type JsonNode =
  | { kind: 'null' }
  | { kind: 'bool'; value: boolean }
  | { kind: 'number'; value: Decimal }
  | { kind: 'string'; value: string }
  | { kind: 'array'; items: JsonNode[] }
  | { kind: 'object'; entries: [string, JsonNode][] }

export class Jsonb {
  constructor(readonly root: JsonNode) {}
}

class Parser {
  at = 0
  /** Open arrays and objects: deeper values are refused (MAX_JSON_DEPTH). */
  depth = 0
  constructor(readonly s: string) {}

  space(): void {
    while (/[ \t\n\r]/.test(this.s[this.at] ?? '')) this.at++
  }

  value(): JsonNode {
    this.space()
    const c = this.s[this.at]
    if (c === '{' || c === '[') {
      // Everything that walks a jsonb value recurses once per level.
      if (++this.depth > MAX_JSON_DEPTH)
        throw new SyntaxError('jsonb nesting too deep')
      const node = c === '{' ? this.object() : this.array()
      this.depth--
      return node
    }
    if (c === '"') return { kind: 'string', value: this.string() }
    for (const [word, node] of [
      ['true', { kind: 'bool', value: true }],
      ['false', { kind: 'bool', value: false }],
      ['null', { kind: 'null' }],
    ] as const) {
      if (this.s.startsWith(word, this.at)) {
        this.at += word.length
        return node
      }
    }
    const m = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
    m.lastIndex = this.at
    const num = m.exec(this.s)
    const value = num && parseNumeric(num[0])
    if (!num || !value) throw new SyntaxError('invalid JSON')
    this.at += num[0].length
    return { kind: 'number', value }
  }

  expect(c: string): void {
    this.space()
    if (this.s[this.at] !== c) throw new SyntaxError('invalid JSON')
    this.at++
  }

  string(): string {
    this.at++ // opening quote
    let out = ''
    for (;;) {
      const c = this.s[this.at++]
      if (c === undefined || c < ' ') throw new SyntaxError('invalid JSON')
      if (c === '"') return out
      if (c !== '\\') {
        out += c
        continue
      }
      const e = this.s[this.at++]
      const simple: Record<string, string> = {
        '"': '"',
        '\\': '\\',
        '/': '/',
        b: '\b',
        f: '\f',
        n: '\n',
        r: '\r',
        t: '\t',
      }
      if (e !== undefined && simple[e] !== undefined) out += simple[e]
      else if (e === 'u') out += this.unicode()
      else throw new SyntaxError('invalid JSON')
    }
  }

  unicode(): string {
    const hex = (): number => {
      const h = this.s.slice(this.at, this.at + 4)
      if (!/^[0-9a-fA-F]{4}$/.test(h)) throw new SyntaxError('invalid JSON')
      this.at += 4
      return parseInt(h, 16)
    }
    const u = hex()
    // jsonb cannot store \u0000, and surrogates must come in valid pairs.
    if (u === 0) throw new SyntaxError('unsupported Unicode escape sequence')
    if (u >= 0xdc00 && u <= 0xdfff)
      throw new SyntaxError('invalid Unicode surrogate')
    if (u < 0xd800 || u > 0xdbff) return String.fromCharCode(u)
    if (!this.s.startsWith('\\u', this.at))
      throw new SyntaxError('invalid Unicode surrogate')
    this.at += 2
    const low = hex()
    if (low < 0xdc00 || low > 0xdfff)
      throw new SyntaxError('invalid Unicode surrogate')
    return String.fromCharCode(u, low)
  }

  array(): JsonNode {
    this.at++
    const items: JsonNode[] = []
    this.space()
    if (this.s[this.at] === ']') {
      this.at++
      return { kind: 'array', items }
    }
    for (;;) {
      items.push(this.value())
      this.space()
      const c = this.s[this.at++]
      if (c === ']') return { kind: 'array', items }
      if (c !== ',') throw new SyntaxError('invalid JSON')
    }
  }

  object(): JsonNode {
    this.at++
    const map = new Map<string, JsonNode>()
    this.space()
    if (this.s[this.at] === '}') {
      this.at++
      return { kind: 'object', entries: [] }
    }
    for (;;) {
      this.space()
      if (this.s[this.at] !== '"') throw new SyntaxError('invalid JSON')
      const key = this.string()
      this.expect(':')
      map.delete(key)
      map.set(key, this.value())
      this.space()
      const c = this.s[this.at++]
      if (c === '}') break
      if (c !== ',') throw new SyntaxError('invalid JSON')
    }
    const entries = [...map.entries()].sort(([a], [b]) => keyOrder(a, b))
    return { kind: 'object', entries }
  }
}

// jsonb orders keys by byte length, then bytes.
function keyOrder(a: string, b: string): number {
  const la = Buffer.byteLength(a)
  const lb = Buffer.byteLength(b)
  return la !== lb ? la - lb : compareText(a, b)
}

function parseTree(text: string): JsonNode | undefined {
  try {
    const p = new Parser(text)
    const root = p.value()
    p.space()
    return p.at === text.length ? root : undefined
  } catch {
    return undefined
  }
}

export function parseJsonb(text: string): Jsonb | undefined {
  const root = parseTree(text)
  return root && new Jsonb(root)
}

/** json input only validates; the value keeps its text. */
export function isValidJson(text: string): boolean {
  return parseTree(text) !== undefined
}

function escape(s: string): string {
  const named: Record<string, string> = {
    '"': '\\"',
    '\\': '\\\\',
    '\b': '\\b',
    '\f': '\\f',
    '\n': '\\n',
    '\r': '\\r',
    '\t': '\\t',
  }
  let out = '"'
  for (const c of s) {
    const control = c < ' '
    out +=
      named[c] ??
      (control ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)
  }
  return `${out}"`
}

function format(n: JsonNode): string {
  switch (n.kind) {
    case 'null':
      return 'null'
    case 'bool':
      return String(n.value)
    case 'number':
      return formatNumeric(n.value)
    case 'string':
      return escape(n.value)
    case 'array':
      return `[${n.items.map(format).join(', ')}]`
    case 'object':
      return `{${n.entries.map(([k, v]) => `${escape(k)}: ${format(v)}`).join(', ')}}`
  }
}

export function formatJsonb(j: Jsonb): string {
  return format(j.root)
}

function equal(a: JsonNode, b: JsonNode): boolean {
  if (a.kind === 'null' || b.kind === 'null') return a.kind === b.kind
  if (a.kind === 'bool' && b.kind === 'bool') return a.value === b.value
  if (a.kind === 'number' && b.kind === 'number')
    return compareNumeric(a.value, b.value) === 0
  if (a.kind === 'string' && b.kind === 'string') return a.value === b.value
  if (a.kind === 'array' && b.kind === 'array')
    return (
      a.items.length === b.items.length &&
      a.items.every((x, i) => equal(x, b.items[i]!))
    )
  if (a.kind === 'object' && b.kind === 'object')
    return (
      a.entries.length === b.entries.length &&
      a.entries.every(([k, v], i) => {
        const other = b.entries[i]
        return other !== undefined && other[0] === k && equal(v, other[1])
      })
    )
  return false
}

export function jsonbEqual(a: Jsonb, b: Jsonb): boolean {
  return equal(a.root, b.root)
}
