// docs/recipes/preview-sources.yml, run: each job's `run` steps, in order, as GitHub Actions
// would run them (the workflow's and step's env, `${{ … }}` filled in, GITHUB_OUTPUT and
// GITHUB_ENV carried from step to step), against a real Sluice with a team API token: a pull
// request opened (its source created, waited on, its credentials handed on, a shape read),
// pushed to again (the same source kept), then closed (its source deleted). The step that
// installs the CLI is replaced by `sluice` on the PATH as bin/sluice.js.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { parse } from 'yaml'
import { runProcess, sluiceOnPath, startTokenedServer } from '../support/cli.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import {
  createSourceDatabase,
  type SourceDatabase,
  type SourceServer,
} from '../support/sources.ts'

const RECIPE = join(
  import.meta.dirname,
  '../../docs/recipes/preview-sources.yml',
)

type Step = {
  name?: string
  id?: string
  uses?: string
  run?: string
  env?: Record<string, string>
}
type Workflow = {
  env: Record<string, string>
  jobs: Record<string, { if?: string; steps: Step[] }>
}

const control = useControlPlaneDatabase()
let server: SourceServer
let database: SourceDatabase
let teamId: string
let token: string
let bin: string

beforeAll(async () => {
  ;({ server, teamId, token } = await startTokenedServer(control.db))
  database = await createSourceDatabase()
  await database.db.query(
    'create table items (id int primary key, title text not null)',
  )
  bin = sluiceOnPath()
}, 60_000)

afterAll(async () => {
  await server?.stop()
  await database?.drop()
})

/** `NAME=value` lines, as GITHUB_OUTPUT and GITHUB_ENV hold them. */
const pairs = (text: string) =>
  Object.fromEntries(
    text
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [
        line.slice(0, line.indexOf('=')),
        line.slice(line.indexOf('=') + 1),
      ]),
  )

/** Runs one job as the event `action` on pull request `number`; answers its steps' output. */
async function runJob(
  workflow: Workflow,
  job: string,
  action: string,
  number: number,
): Promise<string> {
  const { if: condition, steps } = workflow.jobs[
    job
  ] as Workflow['jobs'][string]
  const context: Record<string, string> = {
    'vars.SLUICE_URL': server.origin,
    'vars.SLUICE_TEAM_ID': teamId,
    'vars.SLUICE_CLI': 'unused: the CLI is on the PATH',
    'secrets.SLUICE_API_TOKEN': token,
    'secrets.BRANCH_DATABASE_URL': database.url,
    'github.event.number': String(number),
    'github.event.action': action,
  }
  const fill = (text: string) =>
    text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expression: string) => {
      if (!(expression in context))
        throw new Error(
          `the recipe uses ${expression}, which this test does not know`,
        )
      return context[expression] as string
    })
  // Only the two conditions the recipe has.
  const runs =
    condition === "github.event.action != 'closed'"
      ? action !== 'closed'
      : condition === "github.event.action == 'closed'"
        ? action === 'closed'
        : (() => {
            throw new Error(`unknown condition ${condition}`)
          })()
  if (!runs) return ''
  const dir = mkdtempSync(join(tmpdir(), 'sluice-job-'))
  let env: Record<string, string> = Object.fromEntries(
    Object.entries(workflow.env).map(([k, v]) => [k, fill(v)]),
  )
  let output = ''
  for (const step of steps) {
    if (!step.run || step.run.includes('npm install --global')) continue
    const files = {
      GITHUB_OUTPUT: join(dir, 'output'),
      GITHUB_ENV: join(dir, 'env'),
    }
    writeFileSync(files.GITHUB_OUTPUT, '')
    writeFileSync(files.GITHUB_ENV, '')
    const stepEnv = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([k, v]) => [k, fill(v)]),
    )
    const ran = await runProcess(
      'bash',
      ['-eo', 'pipefail', '-c', fill(step.run)],
      {
        env: {
          PATH: `${bin}:${process.env.PATH}`,
          HOME: process.env.HOME,
          XDG_CONFIG_HOME: join(dir, 'config'),
          ...env,
          ...stepEnv,
          ...files,
        },
      },
    )
    expect(ran.status, `step "${step.name}": ${ran.err}${ran.out}`).toBe(0)
    output += ran.out
    for (const [key, value] of Object.entries(
      pairs(readFileSync(files.GITHUB_OUTPUT, 'utf8')),
    ))
      context[`steps.${step.id}.outputs.${key}`] = value as string
    env = { ...env, ...pairs(readFileSync(files.GITHUB_ENV, 'utf8')) }
  }
  return output
}

const previewSources = async () =>
  (
    await control.db.query<{ id: string; state: string }>(
      `select id, state from sources
        where team_id = $1 and project = 'my-app' and environment = 'pr-42'
          and deleted_at is null`,
      [teamId],
    )
  ).rows

it('gives a pull request its own source while open, and deletes it on close', async () => {
  const workflow = parse(readFileSync(RECIPE, 'utf8')) as Workflow
  const opened = await runJob(workflow, 'preview', 'opened', 42)
  expect(opened).toContain('::add-mask::')
  const first = await previewSources()
  expect(first).toHaveLength(1)
  expect(first[0]?.state).toBe('active')
  // Nothing for the closing job to do yet.
  expect(await runJob(workflow, 'cleanup', 'opened', 42)).toBe('')

  // Pushed to again: the same source, not a second one.
  await runJob(workflow, 'preview', 'synchronize', 42)
  expect((await previewSources()).map((s) => s.id)).toEqual([first[0]?.id])

  await runJob(workflow, 'cleanup', 'closed', 42)
  expect(await previewSources()).toEqual([])
}, 60_000)
