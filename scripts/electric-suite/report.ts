// Reads vitest's JSON report of the client's suite into counts and the failures' names and
// first lines, for the summary the runner prints.
import { readFile } from 'node:fs/promises'
import { relative } from 'node:path'

type AssertionResult = {
  fullName?: string
  title?: string
  status: string
  failureMessages?: string[]
}
type FileResult = {
  name: string
  status: string
  message?: string
  assertionResults?: AssertionResult[]
}
type VitestJson = { testResults?: FileResult[] }

type Failure = { file: string; name: string; message: string }

type Counts = {
  passed: number
  failed: number
  skipped: number
  total: number
}

export type SuiteSummary = Counts & {
  /** Only the files that talk to the server. */
  server: Counts
  /** Each file that talks to the server, by its path in the package. */
  serverFiles: Record<string, Counts>
  failures: Failure[]
}

const zero = (): Counts => ({ passed: 0, failed: 0, skipped: 0, total: 0 })

function count(counts: Counts[], outcome: 'passed' | 'failed' | 'skipped') {
  for (const c of counts) {
    c[outcome]++
    c.total++
  }
}

const SKIPPED = new Set(['skipped', 'pending', 'todo', 'disabled'])

// Enough of an assertion's message to see what was expected and what came, without its stack.
function firstLines(message: string, lines = 8): string {
  return message
    .split('\n')
    .filter((line) => !/^\s+at /.test(line))
    .slice(0, lines)
    .join('\n')
    .trim()
}

export async function readSummary(
  file: string,
  packageDir: string,
  talksToServer: (file: string) => boolean,
): Promise<SuiteSummary> {
  const report = JSON.parse(await readFile(file, 'utf8')) as VitestJson
  const summary: SuiteSummary = {
    ...zero(),
    server: zero(),
    serverFiles: {},
    failures: [],
  }
  for (const result of report.testResults ?? []) {
    const fileName = relative(packageDir, result.name)
    const counts: Counts[] = [summary]
    if (talksToServer(fileName)) {
      const own = (summary.serverFiles[fileName] = zero())
      counts.push(summary.server, own)
    }
    const tests = result.assertionResults ?? []
    // A file that failed before running its tests (an import, a hook) counts as one failure.
    if (
      result.status === 'failed' &&
      !tests.some((t) => t.status === 'failed')
    ) {
      count(counts, 'failed')
      summary.failures.push({
        file: fileName,
        name: '(the file itself)',
        message: firstLines(result.message ?? ''),
      })
    }
    for (const test of tests) {
      if (test.status === 'passed') count(counts, 'passed')
      else if (SKIPPED.has(test.status)) count(counts, 'skipped')
      else {
        count(counts, 'failed')
        summary.failures.push({
          file: fileName,
          name: test.fullName ?? test.title ?? '?',
          message: firstLines((test.failureMessages ?? []).join('\n')),
        })
      }
    }
  }
  return summary
}
