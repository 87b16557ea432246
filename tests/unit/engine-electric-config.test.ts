// The standalone engine's settings from Electric's variables: each read with Electric's
// default when unset, its value when good, and a line naming it when bad; the flags win.
import { describe, expect, it } from 'vitest'
import {
  readEngineConfig,
  type EngineConfig,
  type EngineFlags,
  type Env,
} from '../../src/engine/config/electric-config.ts'

const URL_ = 'postgresql://u:pw@db.example:5432/app'

function read(
  env: Env,
  flags: EngineFlags = {},
  given: { databaseUrl?: string; secret?: string } = {},
) {
  return readEngineConfig(env, flags, {
    databaseUrl: 'databaseUrl' in given ? given.databaseUrl : URL_,
    secret: given.secret,
  })
}

function config(env: Env, flags?: EngineFlags, secret?: string): EngineConfig {
  const result = read(env, flags, { secret })
  if (!result.ok) throw new Error(result.errors.join('\n'))
  return result.config
}

function errors(env: Env, flags?: EngineFlags): string[] {
  const result = read(env, flags)
  return result.ok ? [] : result.errors
}

/** For one setting: its default, a good value, and a bad one named in the error. */
type Case = {
  name: string
  pick: (config: EngineConfig) => unknown
  unset: unknown
  good: [string, unknown]
  bad: string[]
}

const CASES: Case[] = [
  {
    name: 'ELECTRIC_PORT',
    pick: (c) => c.port,
    unset: 3000,
    good: ['8080', 8080],
    bad: ['http', '70000', '-1', '30.5'],
  },
  {
    name: 'ELECTRIC_DB_POOL_SIZE',
    pick: (c) => c.poolSize,
    unset: 20,
    good: ['10', 10],
    bad: ['0', 'ten', '100000'],
  },
  {
    name: 'ELECTRIC_DATABASE_USE_IPV6',
    pick: (c) => c.preferIpv6,
    unset: false,
    good: ['TRUE', true],
    bad: ['yes', 'no', '2'],
  },
  {
    name: 'ELECTRIC_MANUAL_TABLE_PUBLISHING',
    pick: (c) => c.manualTablePublishing,
    unset: false,
    good: ['1', true],
    bad: ['on'],
  },
  {
    name: 'ELECTRIC_ENABLE_INTEGRATION_TESTING',
    pick: (c) => c.allowShapeDeletion,
    unset: false,
    good: ['true', true],
    bad: ['enabled'],
  },
  {
    name: 'ELECTRIC_STORAGE_DIR',
    pick: (c) => c.storageDir,
    unset: './.sluice-engine',
    good: ['/var/lib/electric', '/var/lib/electric'],
    bad: ['x'.repeat(5000)],
  },
  {
    name: 'ELECTRIC_REPLICATION_STREAM_ID',
    pick: (c) => c.replicationStreamId,
    unset: null,
    good: ['My_App2', 'my_app2'],
    bad: ['my-app', '2app', 'a'.repeat(43), 'x y'],
  },
  {
    name: 'ELECTRIC_CACHE_MAX_AGE',
    pick: (c) => c.cacheMaxAge,
    unset: 60,
    good: ['5', 5],
    bad: ['5s', '-5', '99999999999'],
  },
  {
    name: 'ELECTRIC_CACHE_STALE_AGE',
    pick: (c) => c.cacheStaleAge,
    unset: 300,
    good: ['0', 0],
    bad: ['1.5'],
  },
  {
    name: 'ELECTRIC_SHAPE_CHUNK_BYTES_THRESHOLD',
    pick: (c) => c.chunkBytes,
    unset: undefined,
    good: ['10000', 10000],
    bad: ['9999', '10MB', String(2 ** 31)],
  },
  {
    name: 'ELECTRIC_LONG_POLL_TIMEOUT',
    pick: (c) => c.longPollMs,
    unset: undefined,
    good: ['5000', 5000],
    bad: ['20s', '0'],
  },
  {
    name: 'ELECTRIC_MAX_SHAPES',
    pick: (c) => c.maxShapes,
    unset: undefined,
    good: ['10000', 10000],
    bad: ['0', 'many'],
  },
  {
    name: 'ELECTRIC_EXPERIMENTAL_MAX_SHAPES',
    pick: (c) => c.maxShapes,
    unset: undefined,
    good: ['500', 500],
    bad: ['-1'],
  },
  {
    name: 'ELECTRIC_MAX_CONCURRENT_REQUESTS',
    pick: (c) => c.maxConcurrentRequests,
    unset: { initial: 300, existing: 10_000 },
    good: [
      '{"initial": 500, "existing": 30000}',
      { initial: 500, existing: 30000 },
    ],
    bad: [
      '500',
      '{"initial": 0}',
      '{"initial": "500"}',
      '{"other": 1}',
      '[1, 2]',
      '{',
      `{"initial": 1${' '.repeat(2000)}}`,
    ],
  },
  {
    name: 'ELECTRIC_REPLICATION_IDLE_TIMEOUT',
    pick: (c) => c.replicationIdleTimeoutMs,
    unset: 0,
    good: ['5min', 300_000],
    bad: ['10s', '5 hours', 'soon', '2000'],
  },
  {
    name: 'ELECTRIC_PROMETHEUS_PORT',
    pick: (c) => c.metrics,
    unset: null,
    good: ['9090', { port: 9090, host: '127.0.0.1' }],
    bad: ['0', 'ninety'],
  },
  {
    name: 'METRICS_PORT',
    pick: (c) => c.metrics,
    unset: null,
    good: ['9091', { port: 9091, host: '127.0.0.1' }],
    bad: ['65536'],
  },
]

describe("the standalone engine's Electric variables", () => {
  for (const c of CASES)
    describe(c.name, () => {
      it('has its default when unset or empty', () => {
        expect(c.pick(config({}))).toEqual(c.unset)
        expect(c.pick(config({ [c.name]: '' }))).toEqual(c.unset)
      })
      it('takes a good value', () => {
        expect(c.pick(config({ [c.name]: c.good[0] }))).toEqual(c.good[1])
      })
      it('names itself when bad', () => {
        for (const bad of c.bad) {
          const found = errors({ [c.name]: bad })
          expect(found, bad).toHaveLength(1)
          expect(found[0], bad).toMatch(new RegExp(`^${c.name} `))
          // A value is quoted cut short, never whole.
          expect(found[0]?.length, bad).toBeLessThan(300)
        }
      })
    })

  it('reads human-readable times as Electric does: no unit is milliseconds', () => {
    const idle = (text: string) =>
      config({ ELECTRIC_REPLICATION_IDLE_TIMEOUT: text })
        .replicationIdleTimeoutMs
    expect(idle('30000')).toBe(30_000)
    expect(idle('30s')).toBe(30_000)
    expect(idle('45 sec')).toBe(45_000)
    expect(idle('1.5min')).toBe(90_000)
    expect(idle('2m')).toBe(120_000)
    expect(idle('60000msec')).toBe(60_000)
    expect(idle('0')).toBe(0)
  })

  it('takes ELECTRIC_MAX_CONCURRENT_REQUESTS with a key left out at its default', () => {
    expect(
      config({ ELECTRIC_MAX_CONCURRENT_REQUESTS: '{"existing": 50}' })
        .maxConcurrentRequests,
    ).toEqual({ initial: 300, existing: 50 })
  })

  it('names every bad variable at once', () => {
    expect(
      errors({
        ELECTRIC_PORT: 'x',
        ELECTRIC_CACHE_MAX_AGE: 'y',
        ELECTRIC_INSECURE: 'maybe',
      }),
    ).toEqual([
      expect.stringMatching(/^ELECTRIC_INSECURE /),
      expect.stringMatching(/^ELECTRIC_PORT /),
      expect.stringMatching(/^ELECTRIC_CACHE_MAX_AGE /),
    ])
  })
})

describe('the secret, insecure mode and where the engine listens', () => {
  it('listens on loopback without a secret, where Electric would refuse to start, and says so', () => {
    const result = read({})
    expect(result.ok && result.config.host).toBe('127.0.0.1')
    expect(result.ok && result.notices.join('\n')).toMatch(
      /no ELECTRIC_SECRET and ELECTRIC_INSECURE is not true: .* loopback/,
    )
  })

  it('listens on every interface with a secret, or with ELECTRIC_INSECURE=true (warning)', () => {
    expect(config({}, {}, 's3cret').host).toBe('0.0.0.0')
    const insecure = read({ ELECTRIC_INSECURE: 'true' })
    expect(insecure.ok && insecure.config.host).toBe('0.0.0.0')
    expect(insecure.ok && insecure.notices.join('\n')).toMatch(
      /^warning: insecure mode \(ELECTRIC_INSECURE=true\)/m,
    )
    expect(config({ ELECTRIC_LISTEN_ON_IPV6: 'true' }, {}, 's').host).toBe('::')
  })

  it('refuses a secret together with ELECTRIC_INSECURE=true, as Electric', () => {
    const result = read({ ELECTRIC_INSECURE: 'true' }, {}, { secret: 's' })
    expect(result.ok ? [] : result.errors).toEqual([
      'give ELECTRIC_SECRET or ELECTRIC_INSECURE=true, not both',
    ])
  })

  it('lets --host win', () => {
    expect(
      config({ ELECTRIC_INSECURE: 'true' }, { host: '127.0.0.1' }).host,
    ).toBe('127.0.0.1')
  })
})

describe('flags win over the environment', () => {
  it('--port, --data-dir, --chunk-bytes and --allow-shape-deletion', () => {
    const env = {
      ELECTRIC_PORT: '4000',
      ELECTRIC_STORAGE_DIR: '/env',
      ELECTRIC_SHAPE_CHUNK_BYTES_THRESHOLD: '20000',
    }
    const flagged = config(env, {
      port: '5000',
      dataDir: '/flag',
      chunkBytes: '30000',
      allowShapeDeletion: true,
    })
    expect([
      flagged.port,
      flagged.storageDir,
      flagged.chunkBytes,
      flagged.allowShapeDeletion,
    ]).toEqual([5000, '/flag', 30000, true])
    expect(config(env).port).toBe(4000)
  })

  it('a bad flag is named as the flag', () => {
    expect(errors({}, { port: 'x', chunkBytes: '100' })).toEqual([
      expect.stringMatching(/^--port /),
      expect.stringMatching(/^--chunk-bytes .*10000/),
    ])
  })
})

describe('database URLs', () => {
  it('needs DATABASE_URL, a postgres:// URL with a host and without replication=', () => {
    expect(read({}, {}, { databaseUrl: undefined }).ok).toBe(false)
    for (const bad of [
      'mysql://u@h/db',
      'not a url',
      'postgres:///db',
      'postgres://u@h/db?replication=database',
    ]) {
      const result = read({}, {}, { databaseUrl: bad })
      expect(result.ok ? [] : result.errors, bad).toEqual([
        expect.stringMatching(/^DATABASE_URL /),
      ])
    }
  })

  it('never quotes a URL (it may hold a password)', () => {
    const result = read({}, {}, { databaseUrl: 'mysql://u:hunter2@h/db' })
    expect(result.ok ? '' : result.errors.join('\n')).not.toContain('hunter2')
    expect(
      errors({ ELECTRIC_POOLED_DATABASE_URL: 'http://u:hunter2@h' }).join('\n'),
    ).not.toContain('hunter2')
  })

  it('pools over ELECTRIC_POOLED_DATABASE_URL, else its older name, else DATABASE_URL', () => {
    const pooled = 'postgresql://u:pw@pooler.example:6432/app'
    const query = 'postgresql://u:pw@query.example:6432/app'
    expect(config({}).poolUrl).toBe(URL_)
    expect(config({ ELECTRIC_QUERY_DATABASE_URL: query }).poolUrl).toBe(query)
    expect(
      config({
        ELECTRIC_POOLED_DATABASE_URL: pooled,
        ELECTRIC_QUERY_DATABASE_URL: query,
      }).poolUrl,
    ).toBe(pooled)
    expect(config({ ELECTRIC_POOLED_DATABASE_URL: pooled }).databaseUrl).toBe(
      URL_,
    )
    expect(errors({ ELECTRIC_QUERY_DATABASE_URL: 'x' })).toEqual([
      expect.stringMatching(/^ELECTRIC_QUERY_DATABASE_URL /),
    ])
  })

  it('verifies every connection against ELECTRIC_DATABASE_CA_CERTIFICATE_FILE', () => {
    const env = {
      ELECTRIC_DATABASE_CA_CERTIFICATE_FILE: '/certs/root.crt',
      ELECTRIC_POOLED_DATABASE_URL: 'postgresql://u@pooler/app?sslmode=prefer',
    }
    const c = config(env)
    for (const url of [c.databaseUrl, c.poolUrl]) {
      const params = new URL(url).searchParams
      expect(params.get('sslrootcert'), url).toBe('/certs/root.crt')
      expect(params.get('sslmode'), url).toBe('verify-full')
    }
    expect(c.caCertificateFile).toBe('/certs/root.crt')
    expect(config({}).databaseUrl).toBe(URL_)
  })

  it('refuses a CA file with sslmode=disable, as Electric', () => {
    const result = read(
      { ELECTRIC_DATABASE_CA_CERTIFICATE_FILE: '/certs/root.crt' },
      {},
      { databaseUrl: `${URL_}?sslmode=disable` },
    )
    expect(result.ok ? [] : result.errors).toEqual([
      expect.stringMatching(/^ELECTRIC_DATABASE_CA_CERTIFICATE_FILE .*sslmode/),
    ])
  })
})

describe('metrics', () => {
  it('ELECTRIC_PROMETHEUS_PORT is METRICS_PORT; the two must agree', () => {
    expect(
      config({ ELECTRIC_PROMETHEUS_PORT: '9090', METRICS_PORT: '9090' })
        .metrics,
    ).toEqual({
      port: 9090,
      host: '127.0.0.1',
    })
    expect(
      errors({ ELECTRIC_PROMETHEUS_PORT: '9090', METRICS_PORT: '9091' }),
    ).toEqual([
      expect.stringMatching(/METRICS_PORT and ELECTRIC_PROMETHEUS_PORT/),
    ])
    expect(
      config({ METRICS_PORT: '9090', METRICS_HOST: '0.0.0.0' }).metrics,
    ).toEqual({
      port: 9090,
      host: '0.0.0.0',
    })
  })
})

describe('variables the engine does not implement', () => {
  it('are named in one warning line, and those implemented in part in their own', () => {
    const result = read({
      ELECTRIC_STORAGE: 'MEMORY',
      ELECTRIC_LOG_LEVEL: 'debug',
      CLEANUP_REPLICATION_SLOTS_ON_SHUTDOWN: 'true',
      ELECTRIC_PROMETHEUS_PORT: '9090',
      ELECTRIC_PORT: '3000',
      PATH: '/usr/bin',
    })
    const notices = result.ok ? result.notices : []
    const warnings = notices.filter((line) =>
      line.includes('does not implement'),
    )
    expect(warnings).toEqual([
      'warning: the engine does not implement CLEANUP_REPLICATION_SLOTS_ON_SHUTDOWN, ELECTRIC_LOG_LEVEL, ELECTRIC_STORAGE: ignored',
    ])
    expect(notices).toContainEqual(
      expect.stringMatching(
        /^note: ELECTRIC_PROMETHEUS_PORT is implemented in part: /,
      ),
    )
  })

  it('says nothing of them when none is set', () => {
    const result = read({ ELECTRIC_PORT: '3000' }, {}, { secret: 's' })
    expect(result.ok && result.notices).toEqual([])
  })
})
