// nginx as the caching proxy in front of the engine (the fan-out test and bench), the way an
// operator runs it: the shape endpoint's part of the config is the repo's
// deploy/nginx/shape-cache.conf, included as is. It runs under a temp prefix (own pid, logs,
// cache and temp dirs). startNginx runs any config so (the deploy test runs the compose one).
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import {
  chmod,
  mkdir,
  mkdtemp,
  readFile,
  rm,
  writeFile,
} from 'node:fs/promises'
import { Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { freePort } from '../src/server/platform/db/embedded-postgres.ts'

/** Where the tests and the bench find nginx: Debian's nginx-light, or NGINX_PATH. */
export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx'
const SHAPE_CACHE_CONF = resolve(
  import.meta.dirname,
  '../deploy/nginx/shape-cache.conf',
)

export type CachingProxy = {
  /** `http://127.0.0.1:<port>` */
  origin: string
  stop(): Promise<void>
}

function connects(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = new Socket()
    socket.once('connect', () => (socket.destroy(), done(true)))
    socket.once('error', () => done(false))
    socket.connect(port, '127.0.0.1')
  })
}

/** The hard limit on open files nginx may raise itself to (Linux; Infinity elsewhere). */
function hardFileLimit(): number {
  try {
    const limits = readFileSync('/proc/self/limits', 'utf8')
    const hard = /^Max open files\s+\S+\s+(\d+)/m.exec(limits)?.[1]
    return hard ? Number(hard) : Infinity
  } catch {
    return Infinity
  }
}

function config(dir: string, port: number, upstream: URL, connections: number) {
  return `
worker_processes 1;
worker_rlimit_nofile ${Math.min(connections * 3 + 1024, hardFileLimit())};
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections ${connections * 2 + 512}; }
http {
  access_log off;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  proxy_cache_path ${dir}/cache levels=1:2 keys_zone=sluice_shapes:10m max_size=1g inactive=60m use_temp_path=off;
  upstream sluice_engine {
    server ${upstream.host};
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    location /v1/shape {
      include ${SHAPE_CACHE_CONF};
    }
  }
}
`
}

/**
 * Starts nginx in front of `upstream` (the engine's origin). `connections`: the most client
 * connections the test opens at once (each also may hold one to the upstream).
 */
export async function startCachingProxy(
  upstream: string,
  { connections = 2_000 }: { connections?: number } = {},
): Promise<CachingProxy> {
  const port = await freePort()
  const nginx = await startNginx(
    (dir) => config(dir, port, new URL(upstream), connections),
    [port],
  )
  return { origin: `http://127.0.0.1:${port}`, stop: nginx.stop }
}

export type RunningNginx = {
  /** Its prefix: a temp dir holding its config, pid, logs, cache and temp dirs. */
  dir: string
  stop(): Promise<void>
}

/**
 * Runs nginx (in the foreground, `daemon off`) on the config `makeConfig` writes for its temp
 * prefix, and waits until every port in `ports` accepts connections.
 */
export async function startNginx(
  makeConfig: (dir: string) => string | Promise<string>,
  ports: number[],
): Promise<RunningNginx> {
  if (!existsSync(NGINX))
    throw new Error(
      `nginx not found at ${NGINX}: install Debian's nginx-light (npm test's setup does as root) or set NGINX_PATH`,
    )
  const dir = await mkdtemp(join(tmpdir(), 'sluice-nginx-'))
  // As root, nginx's workers run as nobody: they must reach the cache and temp dirs.
  await chmod(dir, 0o755)
  for (const sub of ['cache', 'tmp']) {
    await mkdir(join(dir, sub))
    await chmod(join(dir, sub), 0o777)
  }
  try {
    await writeFile(join(dir, 'nginx.conf'), await makeConfig(dir))
  } catch (error) {
    await rm(dir, { recursive: true, force: true })
    throw error
  }
  const child: ChildProcess = spawn(
    NGINX,
    ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | null>((done) =>
    child.once('exit', (code) => done(code)),
  )
  let gone = false
  void exited.then(() => (gone = true))

  const deadline = Date.now() + 15_000
  for (const port of ports) {
    while (!(await connects(port))) {
      if (gone || Date.now() > deadline) {
        child.kill('SIGKILL')
        const log = await readFile(join(dir, 'error.log'), 'utf8').catch(
          () => '',
        )
        await rm(dir, { recursive: true, force: true })
        throw new Error(`nginx did not start: ${stderr}${log}`)
      }
      await new Promise((r) => setTimeout(r, 20))
    }
  }
  return {
    dir,
    async stop() {
      if (!gone) {
        // QUIT waits for live requests to finish; TERM closes at once.
        child.kill('SIGTERM')
        await exited
      }
      await rm(dir, { recursive: true, force: true })
    },
  }
}
