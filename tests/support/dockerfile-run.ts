// Runs a Dockerfile's build without a container engine: each stage is a directory standing for
// its file system, COPY copies from the context (minus .dockerignore) or an earlier stage, and
// RUN runs the few commands this repo's Dockerfile uses. A command it does not know fails the
// run, so a changed Dockerfile cannot pass untried. `npm ci` links the repo's node_modules
// (installed by the same `npm ci` from the same lock file) instead of installing again.
import { spawnSync } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { cp, mkdir, readFile, readdir, rm, symlink } from 'node:fs/promises'
import { basename, dirname, join, posix, relative } from 'node:path'
import { parseDockerfile, type Instruction } from './dockerfile.ts'

export type Image = {
  /** The stage's file system root (the final stage's, unless a target is picked). */
  root: string
  /** Its WORKDIR, inside `root`. */
  workdir: string
  /** Its ENV. */
  env: Record<string, string>
  /** CMD and HEALTHCHECK's CMD, as exec-form arrays. */
  cmd: string[]
  healthcheck: string[]
  user: string
  exposed: number[]
  volumes: string[]
}

type StageState = Omit<Image, 'root'> & { root: string; workdirPath: string }

/** .dockerignore's patterns as matchers of context-relative paths. */
async function ignoreMatcher(
  context: string,
): Promise<(path: string) => boolean> {
  const text = await readFile(join(context, '.dockerignore'), 'utf8').catch(
    () => '',
  )
  const patterns = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((pattern) => {
      const source = pattern
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '[^/]*')
      // Docker matches from the context's root; a bare name like `node_modules` names a
      // top-level entry, and everything under a matched directory goes with it.
      return new RegExp(`^${source}(/.*)?$`)
    })
  return (path) => patterns.some((p) => p.test(path))
}

function parseJsonArray(text: string, what: string): string[] {
  const value: unknown = JSON.parse(text)
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
    throw new Error(`${what} must be an exec-form JSON array: ${text}`)
  return value as string[]
}

/** Links every entry of the repo's node_modules one by one, so removing one unlinks it only. */
async function linkNodeModules(from: string, to: string) {
  await rm(to, { recursive: true, force: true })
  await mkdir(to, { recursive: true })
  for (const name of await readdir(from)) {
    await symlink(join(from, name), join(to, name))
  }
}

export async function runDockerfile({
  context,
  into,
  nodeModules,
}: {
  context: string
  into: string
  nodeModules: string
}): Promise<Image & { stages: ReadonlyMap<string, Image> }> {
  const ignored = await ignoreMatcher(context)
  const text = await readFile(join(context, 'Dockerfile'), 'utf8')
  const stages = new Map<string, StageState>()
  let last: StageState | undefined

  for (const stage of parseDockerfile(text)) {
    const root = join(into, stage.name)
    const parent = stages.get(stage.base)
    if (parent)
      await cp(parent.root, root, { recursive: true, verbatimSymlinks: true })
    else await mkdir(root, { recursive: true })
    const state: StageState = parent
      ? { ...structuredClone(parent), root }
      : {
          root,
          workdir: '/',
          workdirPath: root,
          env: {},
          cmd: [],
          healthcheck: [],
          user: 'root',
          exposed: [],
          volumes: [],
        }
    state.workdirPath = join(root, state.workdir)
    for (const instruction of stage.instructions)
      await apply(instruction, state, { context, ignored, stages, nodeModules })
    stages.set(stage.name, state)
    last = state
  }
  if (!last) throw new Error('the Dockerfile has no stage')
  const images = new Map(
    [...stages].map(([name, state]) => [name, imageOf(state)]),
  )
  return { ...imageOf(last), stages: images }
}

const imageOf = (state: StageState): Image => ({
  root: state.root,
  workdir: state.workdirPath,
  env: state.env,
  cmd: state.cmd,
  healthcheck: state.healthcheck,
  user: state.user,
  exposed: state.exposed,
  volumes: state.volumes,
})

type Context = {
  context: string
  ignored: (path: string) => boolean
  stages: Map<string, StageState>
  nodeModules: string
}

/** An image path (absolute, or relative to WORKDIR) in the stage's directory. */
const inStage = (state: StageState, path: string) =>
  posix.isAbsolute(path)
    ? join(state.root, path)
    : join(state.workdirPath, path)

async function apply(
  { keyword, args, line }: Instruction,
  state: StageState,
  ctx: Context,
) {
  switch (keyword) {
    case 'WORKDIR':
      state.workdir = posix.resolve(state.workdir, args)
      state.workdirPath = join(state.root, state.workdir)
      await mkdir(state.workdirPath, { recursive: true })
      return
    case 'ENV':
      for (const [, name = '', value = ''] of args.matchAll(
        /([A-Za-z_][A-Za-z0-9_]*)=(\S*)/g,
      ))
        state.env[name] = value
      return
    case 'COPY':
      return copy(args, state, ctx)
    case 'RUN':
      for (const command of args.split('&&').map((c) => c.trim()))
        await run(command, state, ctx, line)
      return
    case 'USER':
      state.user = args
      return
    case 'EXPOSE':
      state.exposed = args.split(/\s+/).map(Number)
      return
    case 'VOLUME':
      state.volumes = parseJsonArray(args, 'VOLUME')
      return
    case 'CMD':
      state.cmd = parseJsonArray(args, 'CMD')
      return
    case 'HEALTHCHECK': {
      const cmd = /\bCMD\s+(\[.*\])\s*$/.exec(args)?.[1]
      if (!cmd) throw new Error(`line ${line}: HEALTHCHECK needs CMD [...]`)
      state.healthcheck = parseJsonArray(cmd, 'HEALTHCHECK CMD')
      return
    }
    default:
      throw new Error(`line ${line}: the test cannot run ${keyword}`)
  }
}

async function copy(args: string, state: StageState, ctx: Context) {
  const words = args.split(/\s+/)
  const from = words.find((w) => w.startsWith('--from='))?.slice(7)
  const [dest = '', ...sources] = words
    .filter((w) => !w.startsWith('--'))
    .reverse()
  const source = from ? ctx.stages.get(from) : undefined
  if (from && !source) throw new Error(`COPY --from=${from}: no such stage`)
  const intoDir = dest.endsWith('/') || sources.length > 1
  for (const path of sources.reverse()) {
    const src = source ? inStage(source, path) : join(ctx.context, path)
    if (!existsSync(src)) throw new Error(`COPY ${path}: not found`)
    const isDir = statSync(src).isDirectory()
    const target = inStage(state, dest)
    const to = !isDir && intoDir ? join(target, basename(src)) : target
    await mkdir(isDir ? to : dirname(to), { recursive: true })
    await cp(src, to, {
      recursive: true,
      verbatimSymlinks: true,
      // The context's .dockerignore applies to what comes from the context only.
      filter: (file) =>
        source !== undefined ||
        !ctx.ignored(relative(ctx.context, file).split('\\').join('/')),
    })
  }
}

async function run(
  command: string,
  state: StageState,
  ctx: Context,
  line: number,
) {
  if (/^npm ci( --omit=dev| --no-audit| --no-fund)*$/.test(command))
    return linkNodeModules(
      ctx.nodeModules,
      join(state.workdirPath, 'node_modules'),
    )
  const removal = /^rm -rf (node_modules\/[@\w./-]+)$/.exec(command)?.[1]
  if (removal && !removal.includes('..'))
    return rm(join(state.workdirPath, removal), {
      recursive: true,
      force: true,
    })
  const made = /^mkdir -p ((?:\/[\w./-]+ ?)+)$/.exec(command)?.[1]
  if (made) {
    for (const path of made.trim().split(' '))
      await mkdir(inStage(state, path), { recursive: true })
    return
  }
  // The test runs as the user it is; there is no `node` user to hand a directory to.
  if (/^chown [\w:]+( \/[\w./-]+)+$/.test(command)) return
  if (command === 'npm run build') {
    // A build stage's environment is its ENV alone: not the test runner's (NODE_ENV=test).
    const result = spawnSync('npm', ['run', 'build'], {
      cwd: state.workdirPath,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...state.env },
      encoding: 'utf8',
    })
    if (result.status !== 0)
      throw new Error(
        `line ${line}: npm run build failed:\n${result.stdout}${result.stderr}`,
      )
    return
  }
  throw new Error(`line ${line}: the test does not know how to run: ${command}`)
}
