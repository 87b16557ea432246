// Comments cite behaviour or in-repo docs, never documents outside the repository: the product
// spec's sections ("spec §N") and the tracker's issues ("issue N") are not in the tree, so a
// reader cannot open them and they drift unseen. Every line of source, tests, e2e, scripts and
// the docs is scanned (test names read as documentation too), and each citation fails naming
// file and line.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOTS = ['src', 'sw', 'tests', 'e2e', 'scripts']
/** This file, which names what it forbids. */
const SELF = join('tests', 'unit', 'no-outside-citations.test.ts')
const EXTENSIONS = /\.(?:[cm]?[jt]sx?|sql)$/

const CITATIONS: { name: string; pattern: RegExp }[] = [
  { name: 'a spec section', pattern: /\bspec\s*§/i },
  // A published standard's section is public and fixed ('RFC 9110 §7.6.1'): allowed.
  { name: 'a section number', pattern: /(?<!\bRFC \d+ )§\s*\d/ },
  { name: 'an issue', pattern: /\bissues? #?\d+/i },
]

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => EXTENSIONS.test(name))
    .map((name) => join(dir, name))
}

/** Every line of `text` that cites, as 'file:line: what it cites: the line'. */
function citations(path: string, text: string): string[] {
  return text.split('\n').flatMap((line, index) => {
    const citation = CITATIONS.find(({ pattern }) => pattern.test(line))
    return citation
      ? [`${path}:${index + 1}: ${citation.name}: ${line.trim()}`]
      : []
  })
}

describe('citations in code', () => {
  it('finds each kind of citation and lets a standard through', () => {
    const text = [
      '// Shown after a failure (spec §8).',
      '// §4: the connection row.',
      '// The fault matrix (Issue 19).',
      '// Headers a proxy drops (RFC 9110 §7.6.1).',
      '// The spec file of this test.',
    ].join('\n')
    expect(citations('x.ts', text)).toEqual([
      'x.ts:1: a spec section: // Shown after a failure (spec §8).',
      'x.ts:2: a section number: // §4: the connection row.',
      'x.ts:3: an issue: // The fault matrix (Issue 19).',
    ])
  })

  it('cites no spec section or issue in src, sw, tests, e2e, scripts or the docs', () => {
    const docs = [
      'README.md',
      ...readdirSync('docs')
        .filter((name) => name.endsWith('.md'))
        .map((name) => join('docs', name)),
    ]
    const found = [...ROOTS.flatMap(files), ...docs]
      .filter((path) => path !== SELF)
      .flatMap((path) => citations(path, readFileSync(path, 'utf8')))
    expect(found).toEqual([])
  })
})
