// What Electric's client tests talk to, started the way Electric's dev setup has them: a
// Postgres on localhost:54321 (user postgres, password `password`, database `electric`: the
// tests' `makePgClient` names these), the engine standing where Electric's server would, and
// the dev nginx cache in front of it for the proxy-cache tests.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import {
  freePort,
  startEmbeddedPostgres,
  type RunningPostgres,
} from '../../src/server/platform/db/embedded-postgres.ts'
import { startNginx, type RunningNginx } from '../nginx.ts'

const REPO_ROOT = resolve(import.meta.dirname, '../..')
const PG_PORT = 54321
const PG_PASSWORD = 'password'

export async function startPostgres(dir: string): Promise<RunningPostgres> {
  await mkdir(dir, { recursive: true })
  // startEmbeddedPostgres keeps a cluster's password in this file: set it to the tests' one.
  await writeFile(
    join(dir, 'postgres-credentials.json'),
    JSON.stringify({ password: PG_PASSWORD }),
  )
  const log: string[] = []
  try {
    return await startEmbeddedPostgres({
      dir,
      port: PG_PORT,
      database: 'electric',
      log: (line) => log.push(line),
    })
  } catch (error) {
    throw new Error(
      `Postgres did not start on port ${PG_PORT} (the client's tests name that port; is it taken?):\n${log.slice(-20).join('\n')}`,
      { cause: error },
    )
  }
}

export type RunningEngine = {
  /** `http://127.0.0.1:<port>` */
  origin: string
  chunkBytes: number
  /** Everything the engine printed. */
  output(): string
  stop(): Promise<void>
}

type EngineStart =
  { ok: true; engine: RunningEngine } | { ok: false; output: string }

/** `npm run engine` as a child process; resolves once it serves or has exited. */
async function spawnEngine(
  databaseUrl: string,
  dataDir: string,
  chunkBytes: number,
  env: Record<string, string>,
): Promise<EngineStart> {
  const port = await freePort()
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/engine/cli.ts',
      '--port',
      String(port),
      '--allow-shape-deletion',
      '--chunk-bytes',
      String(chunkBytes),
      '--data-dir',
      dataDir,
    ],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let output = ''
  const collect = (chunk: Buffer) => (output += chunk.toString())
  child.stdout?.on('data', collect)
  child.stderr?.on('data', collect)
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  let gone = false
  void exited.then(() => (gone = true))
  const origin = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  while (!(await healthy(origin))) {
    if (gone) return { ok: false, output }
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`the engine did not become active in 60 s:\n${output}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    ok: true,
    engine: {
      origin,
      chunkBytes,
      output: () => output,
      async stop() {
        if (gone) return
        child.kill('SIGTERM')
        await exited
      },
    },
  }
}

async function healthy(origin: string): Promise<boolean> {
  try {
    const response = await fetch(`${origin}/v1/health`)
    if (!response.ok) return false
    const body = (await response.json()) as { status?: string }
    return body.status === 'active'
  } catch {
    return false
  }
}

/**
 * The engine with Electric's dev settings in its environment and the dev chunk threshold as
 * `--chunk-bytes`; when the engine refuses that threshold (it once took 64 KiB at least), the
 * smallest it takes instead, and the caller says so.
 */
export async function startEngine(
  databaseUrl: string,
  dataDir: string,
  settings: Record<string, string>,
): Promise<RunningEngine> {
  const wanted = Number(settings.ELECTRIC_SHAPE_CHUNK_BYTES_THRESHOLD)
  const first = await spawnEngine(databaseUrl, dataDir, wanted, settings)
  if (first.ok) return first.engine
  const floor = /--chunk-bytes[^\n]*at least (\d+)/.exec(first.output)?.[1]
  if (!floor) throw new Error(`the engine exited:\n${first.output}`)
  console.log(
    `the engine takes --chunk-bytes ${floor} at least, not Electric's ${wanted}: running with ${floor}`,
  )
  const second = await spawnEngine(
    databaseUrl,
    dataDir,
    Number(floor),
    settings,
  )
  if (!second.ok) throw new Error(`the engine exited:\n${second.output}`)
  return second.engine
}

/**
 * Electric's dev nginx config (the commit's own `packages/sync-service/dev/nginx.conf`) with
 * only its places changed: listening on a local port, proxying to the engine, its cache and
 * temp files under nginx's temp prefix.
 */
export async function startDevProxy(
  devConfig: string,
  engineOrigin: string,
): Promise<{ origin: string; nginx: RunningNginx }> {
  const port = await freePort()
  const nginx = await startNginx(
    (dir) =>
      devConfig
        .replace(/^\s*include\s+mime\.types;\s*$/m, '')
        .replace(/listen\s+\d+;/, `listen 127.0.0.1:${port};`)
        .replace(/proxy_pass\s+http:\/\/[^;]+;/, `proxy_pass ${engineOrigin};`)
        .replace(/\/var\/cache\/nginx/, `${dir}/cache`)
        .replace(
          /^http\s*\{/m,
          `daemon off;\npid ${dir}/nginx.pid;\nhttp {\n    access_log off;\n    client_body_temp_path ${dir}/tmp/body;\n    proxy_temp_path ${dir}/tmp/proxy;\n    fastcgi_temp_path ${dir}/tmp/fastcgi;\n    uwsgi_temp_path ${dir}/tmp/uwsgi;\n    scgi_temp_path ${dir}/tmp/scgi;`,
        ),
    [port],
  )
  return { origin: `http://127.0.0.1:${port}`, nginx }
}
