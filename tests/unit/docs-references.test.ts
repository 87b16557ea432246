// The prose names things the code must have: every repository path, `npm` command and
// environment variable that README.md and docs/*.md name exists, so a move or a rename that
// forgets the docs fails here, naming the file, the line and the reference.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ENGINE_CLI_VARIABLES } from '../../src/engine/cli-variables.ts'
import { ENV_NAMES } from '../../src/server/platform/env.ts'
import { CLI_VARIABLES } from '../../src/cli/config.ts'

const DOCS = [
  'README.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]

/**
 * Names in capitals that the docs may use though neither env.ts nor the engine's CLI reads
 * them, each with the path (file or folder) that uses it, so the list cannot go stale either.
 */
const OTHER_NAMES: Record<string, { where: string; why: string }> = {
  SOURCE_DATABASE_URL: {
    where: 'src/server',
    why: "the admin tool's secret, read apart from env.ts (docs/conventions.md)",
  },
  VITEST_MAX_WORKERS: { where: 'vitest.config.ts', why: 'a test run setting' },
  E2E_WORKERS: { where: 'playwright.config.ts', why: 'a test run setting' },
  SLUICE_SOURCEMAPS: { where: 'vite.config.ts', why: 'a build setting' },
  SOAK_MINUTES: { where: 'tests/faults', why: 'a fault script setting' },
  F7_ROWS: { where: 'tests/faults', why: 'a fault script setting' },
  POSTGRES_PASSWORD: {
    where: 'docker-compose.yml',
    why: "the compose file's own .env value",
  },
  NODE_ENV: { where: 'Dockerfile', why: "Node's convention, set by the image" },
  IDENTIFY_SYSTEM: {
    where: 'src/server',
    why: 'a Postgres replication command, not a variable',
  },
  FAULTS_JSON: {
    where: 'scripts/faults.ts',
    why: 'the line the fault script prints',
  },
  ELECTRIC_API_TOKEN: {
    where: 'docs/migrate-from-electric-cloud.md',
    why: "Electric Cloud's CLI token, named beside Sluice's",
  },
}

const VARIABLES = new Set([
  ...ENV_NAMES,
  ...Object.keys(ENGINE_CLI_VARIABLES),
  ...Object.keys(CLI_VARIABLES),
])

/** Where repository paths start; anything else in backticks is not taken for a path. */
const PATH =
  /^(?:src|scripts|tests|docs|migrations|e2e|deploy|sw|public)\/[\w./@{}<>*-]*|^(?:Dockerfile|docker-compose\.yml|package\.json|[\w.-]+\.config\.[jt]s|knip\.jsonc|tsconfig[\w.]*\.json|index\.html)$/

/** npm's own commands; any other `npm X` must be a script in package.json. */
const NPM_COMMANDS = new Set(['install', 'ci', 'exec', 'init', 'pack'])

const scripts = new Set(
  Object.keys(
    (
      JSON.parse(readFileSync('package.json', 'utf8')) as {
        scripts: Record<string, string>
      }
    ).scripts,
  ),
)

/** A name declared in code (a constant, type or function) is not taken for a variable. */
const declared = declaredNames(['src', 'scripts', 'tests', 'e2e', 'sw'])

type Reference = { file: string; line: number; text: string }

describe('what the docs name', () => {
  const code = DOCS.flatMap(codeTokens)

  it('every repository path exists', () => {
    const missing = code
      .map((ref) => ({ ref, path: repositoryPath(ref.text) }))
      .filter(({ path }) => path !== null && !existsSync(path) && !built(path))
      .map(({ ref }) => where(ref))
    const links = DOCS.flatMap(linkProblems)
    expect([...missing, ...links]).toEqual([])
  })

  it('every npm command is npm’s own or a script in package.json', () => {
    const unknown = DOCS.flatMap(codeLines).flatMap((ref) =>
      [...ref.text.matchAll(/\bnpm\s+(?:run\s+(?:-s\s+)?)?([a-z][\w:-]*)/g)]
        .filter((match) => {
          const name = match[1] ?? ''
          const run = match[0].includes(' run ')
          return run
            ? !scripts.has(name)
            : !NPM_COMMANDS.has(name) && !scripts.has(name)
        })
        .map((match) => where({ ...ref, text: match[0] })),
    )
    expect(unknown).toEqual([])
  })

  it('every environment variable is read by the code', () => {
    const unknown = code
      .map((ref) => ({ ref, name: variableName(ref.text) }))
      .filter(
        ({ name }) =>
          name !== null &&
          !VARIABLES.has(name) &&
          !(name in OTHER_NAMES) &&
          !declared.has(name),
      )
      .map(({ ref }) => where(ref))
    expect(unknown).toEqual([])
  })

  it('lists other names only where the code still uses them', () => {
    const stale = Object.entries(OTHER_NAMES)
      .filter(([name, { where }]) => !mentions(where, name))
      .map(([name, { where }]) => `${name}: not in ${where}`)
    expect(stale).toEqual([])
  })
})

function where(ref: Reference): string {
  return `${ref.file}:${ref.line}: ${ref.text}`
}

/** Each line of each doc, with whether it is inside a fenced code block. */
function lines(
  file: string,
): { line: number; text: string; fenced: boolean }[] {
  let fenced = false
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((text, index) => {
      if (/^\s*```/.test(text)) {
        fenced = !fenced
        return []
      }
      return [{ line: index + 1, text, fenced }]
    })
}

/** Code as the doc writes it: each inline code span, and each line of a fenced block. */
function codeLines(file: string): Reference[] {
  return lines(file).flatMap(({ line, text, fenced }) =>
    fenced
      ? [{ file, line, text: text.replace(/(^|\s)#\s.*$/, '') }]
      : [...text.matchAll(/`([^`]+)`/g)].map((match) => ({
          file,
          line,
          text: match[1] ?? '',
        })),
  )
}

/**
 * The words of that code, without the punctuation around them. A fenced block's words in
 * capitals are mostly placeholders (`TEAM_ID`), so of those only `NAME=value` counts.
 */
function codeTokens(file: string): Reference[] {
  const fenced = new Set(
    lines(file)
      .filter((line) => line.fenced)
      .map((line) => line.line),
  )
  return codeLines(file).flatMap((ref) =>
    ref.text
      .split(/\s+/)
      .map((word) => word.replace(/^[("'[]+|[)"',;:.\]]+$/g, ''))
      .filter(Boolean)
      .filter(
        (word) => !fenced.has(ref.line) || !/^[A-Z][A-Z0-9_]*$/.test(word),
      )
      .map((text) => ({ ...ref, text })),
  )
}

/**
 * The path a word names, up to its first placeholder (`<area>`, `{id}`, `*`, `NNNN`), or null
 * when it names none.
 */
function repositoryPath(word: string): string | null {
  const match = PATH.exec(word)
  if (!match) return null
  const path = match[0].replace(/[:#].*$/, '')
  const kept: string[] = []
  for (const part of path.split('/')) {
    if (/[<>{}*]|NNNN/.test(part)) return kept.join('/') || null
    kept.push(part)
  }
  return path
}

/** The variable a word names: `NAME` with an underscore, or `NAME=value`. */
function variableName(word: string): string | null {
  const assigned = /^([A-Z][A-Z0-9_]*)=/.exec(word)
  if (assigned) return assigned[1] ?? null
  return /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(word) ? word : null
}

/** Links to files that do not exist, and to headings a Markdown file does not have. */
function linkProblems(file: string): string[] {
  return lines(file)
    .filter(({ fenced }) => !fenced)
    .flatMap(({ line, text }) =>
      [...text.matchAll(/\]\(([^)\s]+)\)/g)].flatMap((match) => {
        const target = match[1] ?? ''
        if (/^[a-z]+:/.test(target)) return []
        const [path = '', anchor] = target.split('#')
        const resolved = path ? normalize(join(dirname(file), path)) : file
        const ref = where({ file, line, text: target })
        if (!existsSync(resolved)) return [ref]
        if (
          anchor &&
          resolved.endsWith('.md') &&
          !anchors(resolved).has(anchor)
        )
          return [`${ref} (no such heading)`]
        return []
      }),
    )
}

/** The anchors GitHub gives a Markdown file's headings. */
function anchors(file: string): Set<string> {
  return new Set(
    lines(file)
      .filter(({ fenced, text }) => !fenced && /^#{1,6} /.test(text))
      .map(({ text }) =>
        text
          .replace(/^#+ /, '')
          .toLowerCase()
          .replace(/[^\p{L}\p{N}\s_-]/gu, '')
          .replace(/ /g, '-'),
      ),
  )
}

function declaredNames(roots: string[]): Set<string> {
  const names = new Set<string>()
  for (const file of roots.flatMap(sourceFiles))
    for (const match of readFileSync(file, 'utf8').matchAll(
      /\b(?:const|let|function|class|type|interface|enum)\s+([A-Z][A-Z0-9_]*)\b/g,
    ))
      names.add(match[1] ?? '')
  return names
}

function sourceFiles(path: string): string[] {
  if (!statSync(path).isDirectory())
    return /\.(?:ts|tsx|js)$/.test(path) ? [path] : []
  return readdirSync(path).flatMap((name) =>
    name === 'node_modules' ? [] : sourceFiles(join(path, name)),
  )
}

/** Files git ignores are built, not kept (`public/local-store-seed.tar.gz`, TLS keys). */
const IGNORED = readFileSync('.gitignore', 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'))
  .map(
    (glob) =>
      new RegExp(
        `^${glob
          .replace(/\/$/, '')
          .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '[^/]*')}(?:/|$)`,
      ),
  )

function built(path: string): boolean {
  return IGNORED.some((pattern) => pattern.test(path))
}

/** Whether a file, or any file under a folder, holds the name. */
function mentions(path: string, name: string): boolean {
  if (!statSync(path).isDirectory())
    return readFileSync(path, 'utf8').includes(name)
  return readdirSync(path).some((entry) => mentions(join(path, entry), name))
}
