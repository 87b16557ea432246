// `npm run electric:suite -- --electric-repo PATH [--ref REF] [-t NAME] [FILE...]` (or
// ELECTRIC_REPO=PATH): runs Electric's own TypeScript client test suite against the engine.
// It takes packages/typescript-client out of that git directory (bare or not) at REF (HEAD by
// default), installs what its tests import from the npm registry (both kept under the temp dir
// per commit), starts a Postgres where the tests look for one (localhost:54321), the engine
// with Electric's dev settings (the commit's packages/sync-service/.env.dev: cache max-age 1 s,
// stale 3 s, 10 kB chunks), Electric's dev nginx cache in front of it, and runs the suite with
// the environment its global setup reads (ELECTRIC_URL, ELECTRIC_PROXY_CACHE_URL). It prints
// the counts, each failure's name and assertion, then `SUITE_JSON {...}`, and exits 1 when a
// test failed. Not part of `npm test`: it needs a copy of Electric's repo.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import {
  devSettings,
  exportClient,
  resolveCommit,
  serverTestFiles,
} from './electric-suite/export.ts'
import { readSummary, type SuiteSummary } from './electric-suite/report.ts'
import {
  startDevProxy,
  startEngine,
  startPostgres,
} from './electric-suite/services.ts'
import { NGINX, type RunningNginx } from './nginx.ts'

// The whole suite takes a few minutes; a run still going after this is stopped as hung.
const SUITE_TIMEOUT_MS = 30 * 60_000

const { values, positionals } = parseArgs({
  options: {
    'electric-repo': { type: 'string' },
    ref: { type: 'string', default: 'HEAD' },
    // Vitest's own: only the tests whose names match.
    'test-name-pattern': { type: 'string', short: 't' },
    help: { type: 'boolean', default: false },
  },
  allowPositionals: true,
})
const repo = values['electric-repo'] ?? process.env.ELECTRIC_REPO
if (values.help || !repo) {
  console.log(
    'Usage: npm run electric:suite -- --electric-repo PATH [--ref REF] [-t NAME] [FILE...]\n' +
      "  (or ELECTRIC_REPO=PATH): PATH is a git directory of Electric's repo, bare or not.",
  )
  process.exit(values.help ? 0 : 2)
}

const repoDir = resolve(repo)
const commit = resolveCommit(repoDir, values.ref ?? 'HEAD')
const settings = devSettings(repoDir, commit)
console.log(`Electric ${commit}, dev settings ${JSON.stringify(settings)}`)
const client = await exportClient(repoDir, commit)

const summary = await runSuite()
printSummary(summary)
process.exit(summary.failed === 0 && summary.total > 0 ? 0 : 1)

async function runSuite(): Promise<SuiteSummary & { exitCode: number }> {
  const runDir = await mkdtemp(join(tmpdir(), 'sluice-electric-run-'))
  const stops: (() => Promise<void>)[] = []
  try {
    const postgres = await startPostgres(join(runDir, 'pg'))
    stops.unshift(() => postgres.stop())
    const engine = await startEngine(
      postgres.url,
      join(runDir, 'engine'),
      settings,
    )
    stops.unshift(() => engine.stop())
    const proxy = await startProxy(engine.origin)
    if (proxy) stops.unshift(() => proxy.nginx.stop())
    console.log(
      `engine on ${engine.origin} (--chunk-bytes ${engine.chunkBytes})${proxy ? `, nginx cache on ${proxy.origin}` : ''}`,
    )
    const reportFile = join(runDir, 'vitest.json')
    const exitCode = await runVitest(
      client.root,
      client.packageDir,
      reportFile,
      {
        ELECTRIC_URL: engine.origin,
        ELECTRIC_PROXY_CACHE_URL: proxy?.origin ?? '',
        DATABASE_URL: postgres.url,
      },
    )
    if (!existsSync(reportFile))
      throw new Error(
        `vitest wrote no report; the engine said:\n${engine.output()}`,
      )
    const summary = await readSummary(
      reportFile,
      client.packageDir,
      await serverTestFiles(client.packageDir),
    )
    return { ...summary, exitCode }
  } finally {
    for (const stop of stops) await stop().catch(() => {})
    await rm(runDir, { recursive: true, force: true, maxRetries: 5 })
  }
}

/** Electric's dev nginx, when nginx is installed; without it the proxy-cache tests fail. */
async function startProxy(
  engineOrigin: string,
): Promise<{ origin: string; nginx: RunningNginx } | undefined> {
  if (!existsSync(NGINX)) {
    console.log(`no nginx at ${NGINX}: the proxy-cache tests will fail`)
    return undefined
  }
  const config = execFileSync('git', [
    '-C',
    repoDir,
    'show',
    `${commit}:packages/sync-service/dev/nginx.conf`,
  ]).toString()
  return startDevProxy(config, engineOrigin)
}

function runVitest(
  root: string,
  packageDir: string,
  reportFile: string,
  env: Record<string, string>,
): Promise<number> {
  const child = spawn(
    join(root, 'node_modules', '.bin', 'vitest'),
    [
      'run',
      ...positionals,
      ...(values['test-name-pattern']
        ? ['-t', values['test-name-pattern']]
        : []),
      '--reporter=default',
      '--reporter=json',
      // A path, not per reporter: the config's own outputFile (a path) would win over that.
      `--outputFile=${reportFile}`,
    ],
    { cwd: packageDir, env: { ...process.env, ...env }, stdio: 'inherit' },
  )
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      fail(new Error(`the suite ran past ${SUITE_TIMEOUT_MS / 60_000} minutes`))
    }, SUITE_TIMEOUT_MS)
    child.once('exit', (code) => {
      clearTimeout(timer)
      done(code ?? 1)
    })
    child.once('error', (error) => {
      clearTimeout(timer)
      fail(error)
    })
  })
}

function printSummary(result: SuiteSummary & { exitCode: number }) {
  console.log(
    `\nElectric client suite at ${commit.slice(0, 12)} against the engine`,
  )
  for (const failure of result.failures) {
    console.log(`\nFAIL ${failure.file} > ${failure.name}`)
    if (failure.message) console.log(indent(failure.message))
  }
  const { server } = result
  console.log(`\nthe files that talk to the server:`)
  for (const [file, counts] of Object.entries(result.serverFiles))
    console.log(`  ${file}: ${counts.passed} of ${counts.total} passed`)
  console.log(`  together: ${server.passed} of ${server.total} passed`)
  // Vitest also fails a run on errors outside any test (an unhandled rejection): shown above.
  if (result.failed === 0 && result.exitCode !== 0)
    console.log(`vitest exited ${result.exitCode}: see its errors above`)
  console.log(
    `${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped`,
  )
  console.log(
    `SUITE_JSON ${JSON.stringify({
      commit,
      passed: result.passed,
      failed: result.failed,
      skipped: result.skipped,
      total: result.total,
      server,
      vitestExit: result.exitCode,
      failures: result.failures.map((f) => `${f.file} > ${f.name}`),
    })}`,
  )
}

function indent(text: string) {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n')
}
