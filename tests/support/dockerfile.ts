// A Dockerfile read into stages and checked against what a production image must be. Syntax
// comes from dockerfile-utils (the linter behind editors' Dockerfile support); the policy
// (several stages, pinned bases, a non-root user, a health check, no secret baked in) is ours.
import { validate } from 'dockerfile-utils'

export type Instruction = { keyword: string; args: string; line: number }
export type Stage = { name: string; base: string; instructions: Instruction[] }

/** Instructions with continuation lines joined and comments dropped, grouped by FROM. */
export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = []
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const start = i
    let joined = lines[i] ?? ''
    if (/^\s*(#|$)/.test(joined)) continue
    while (joined.endsWith('\\') && i + 1 < lines.length) {
      joined = `${joined.slice(0, -1)} ${(lines[++i] ?? '').trim()}`
    }
    const match = /^\s*(\S+)\s*(.*)$/.exec(joined)
    if (!match) continue
    const keyword = (match[1] ?? '').toUpperCase()
    const args = (match[2] ?? '').trim()
    if (keyword === 'FROM') {
      const [base = '', , name] = args.split(/\s+/)
      stages.push({
        name: name ?? String(stages.length),
        base,
        instructions: [],
      })
      continue
    }
    stages.at(-1)?.instructions.push({ keyword, args, line: start + 1 })
  }
  return stages
}

/** A base image pinned to an exact version (x.y.z in its tag) or a digest. */
const PINNED = /(@sha256:[0-9a-f]{64}$)|(:\d+\.\d+\.\d+[^:/]*$)/
const SECRET_NAME = /SECRET|PASSWORD|PASSWD|TOKEN|PRIVATE|CREDENTIAL|API_?KEY/i

/** The name=value pairs of an ENV or ARG (either form: `A=1 B=2` or `A 1`). */
function declaredNames(instruction: Instruction): string[] {
  if (!/=/.test(instruction.args.split(/\s+/)[0] ?? ''))
    return [instruction.args.split(/\s+/)[0] ?? '']
  return [
    ...instruction.args.matchAll(/(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=/g),
  ].map((m) => m[1] ?? '')
}

/** Every problem found, as `line N: text` or a sentence; empty when the file passes. */
export function checkDockerfile(text: string): string[] {
  const problems = validate(text).map(
    (d) => `line ${d.range.start.line + 1}: ${d.message}`,
  )
  const stages = parseDockerfile(text)
  const stageNames = new Set(stages.map((s) => s.name))
  const final = stages.at(-1)
  if (stages.length < 2 || !final)
    return [...problems, 'not multi-stage: build apart from the runtime']
  for (const stage of stages) {
    if (!stageNames.has(stage.base) && !PINNED.test(stage.base))
      problems.push(`stage ${stage.name}: base ${stage.base} is not pinned`)
    for (const instruction of stage.instructions) {
      if (instruction.keyword !== 'ENV' && instruction.keyword !== 'ARG')
        continue
      for (const name of declaredNames(instruction))
        if (SECRET_NAME.test(name))
          problems.push(
            `line ${instruction.line}: ${name} looks like a secret: pass it at run time, never in the image`,
          )
    }
  }
  // Every stage an operator can run (one with a command, `docker build --target`) and the
  // final one (the default target) is held to the runtime's policy.
  const runnable = stages.filter(
    (stage) =>
      stage === final ||
      stage.instructions.some(
        (i) => i.keyword === 'CMD' || i.keyword === 'ENTRYPOINT',
      ),
  )
  for (const stage of runnable) problems.push(...runtimeProblems(stage))
  return problems
}

/** What a stage that runs in production must have, each missing thing named. */
function runtimeProblems(stage: Stage): string[] {
  const problems: string[] = []
  const own = (keyword: string) =>
    stage.instructions.filter((i) => i.keyword === keyword)
  const last = (keyword: string) => own(keyword).at(-1)
  const name = `the ${stage.name} stage`
  const user = last('USER')?.args.split(':')[0]
  if (!user || user === 'root' || user === '0')
    problems.push(`${name} runs as root: add USER with another user`)
  if (!last('HEALTHCHECK') || /^NONE$/i.test(last('HEALTHCHECK')?.args ?? ''))
    problems.push(`${name} has no HEALTHCHECK`)
  if (!last('CMD') && !last('ENTRYPOINT'))
    problems.push(`${name} has no CMD or ENTRYPOINT`)
  if (!own('ENV').some((i) => /(^|\s)NODE_ENV=production(\s|$)/.test(i.args)))
    problems.push(`${name} does not set NODE_ENV=production`)
  return problems
}
