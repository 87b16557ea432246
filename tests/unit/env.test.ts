// parseEnv: defaults, readable errors naming the variable, and when local sign-in is on.
import { describe, expect, it } from 'vitest'
import { EnvError, parseEnv } from '../../src/server/platform/env.ts'

const github = { GITHUB_CLIENT_ID: 'id', GITHUB_CLIENT_SECRET: 'secret' }
const google = { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' }
const hosted = {
  SLUICE_MODE: 'hosted',
  SLUICE_SECRET: 'x'.repeat(32),
  PUBLIC_URL: 'https://sluice.example.com',
}

/** The EnvError message parseEnv throws for `vars` (fails the test if it does not throw). */
function envError(vars: Record<string, string>): string {
  try {
    parseEnv(vars)
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError)
    return (error as EnvError).message
  }
  throw new Error(`parseEnv accepted ${JSON.stringify(vars)}`)
}

describe('parseEnv', () => {
  it('applies the defaults to an empty environment', () => {
    const env = parseEnv({})
    expect(env.PORT).toBe(5133)
    expect(env.DATA_DIR).toBe('./.sluice')
    expect(env.SLUICE_MODE).toBe('local')
    expect(env.HOST).toBe('localhost')
    expect(env.githubEnabled).toBe(false)
    expect(env.googleEnabled).toBe(false)
  })

  it('defaults the Supabase and Neon endpoints, OAuth off without a client', () => {
    const env = parseEnv({})
    expect(env.SUPABASE_API_URL).toBe('https://api.supabase.com')
    expect(env.SUPABASE_DB_HOST_TEMPLATE).toBe('db.{ref}.supabase.co:5432')
    expect(env.NEON_OAUTH_URL).toBe('https://oauth2.neon.tech')
    expect(env.NEON_API_URL).toBe('https://console.neon.tech/api/v2')
    expect(env.supabaseOAuthEnabled).toBe(false)
    expect(env.neonOAuthEnabled).toBe(false)
    expect(
      parseEnv({ NEON_CLIENT_ID: 'id', NEON_CLIENT_SECRET: 's' })
        .neonOAuthEnabled,
    ).toBe(true)
  })

  it('runs every region and names the instance by host and pid unless told', () => {
    const env = parseEnv({})
    expect(env.SLUICE_REGIONS).toEqual(['us-east-1', 'eu-west-1', 'ca-west-1'])
    expect(env.SLUICE_INSTANCE_ID).toMatch(new RegExp(`-${process.pid}$`))
    expect(env.instanceIdGiven).toBe(false)
    const told = parseEnv({
      SLUICE_REGIONS: ' eu-west-1, ca-west-1 ',
      SLUICE_INSTANCE_ID: 'srv-eu-1',
    })
    expect(told.SLUICE_REGIONS).toEqual(['eu-west-1', 'ca-west-1'])
    expect(told.SLUICE_INSTANCE_ID).toBe('srv-eu-1')
    expect(told.instanceIdGiven).toBe(true)
    expect(env.SLUICE_CLAIM_INTERVAL_MS).toBe(5_000)
    expect(
      parseEnv({ SLUICE_CLAIM_INTERVAL_MS: '250' }).SLUICE_CLAIM_INTERVAL_MS,
    ).toBe(250)
    expect(envError({ SLUICE_CLAIM_INTERVAL_MS: '10' })).toContain(
      'SLUICE_CLAIM_INTERVAL_MS: ',
    )
    expect(env.SLUICE_HOLDER_STALE_MS).toBe(30_000)
    expect(
      parseEnv({ SLUICE_HOLDER_STALE_MS: '2000' }).SLUICE_HOLDER_STALE_MS,
    ).toBe(2_000)
    expect(envError({ SLUICE_HOLDER_STALE_MS: '500' })).toContain(
      'SLUICE_HOLDER_STALE_MS: ',
    )
    expect(envError({ SLUICE_REGIONS: 'eu-west-1,mars-1' })).toMatch(
      /SLUICE_REGIONS: unknown region 'mars-1'/,
    )
    expect(envError({ SLUICE_INSTANCE_ID: 'a b' })).toContain(
      'SLUICE_INSTANCE_ID: ',
    )
  })

  it('reaches this server at its listen address unless told, and needs the internal secret in hosted mode with a shared control plane', () => {
    expect(parseEnv({ PORT: '4000' }).SLUICE_INTERNAL_URL).toBe(
      'http://localhost:4000',
    )
    expect(
      parseEnv({ HOST: '0.0.0.0', PORT: '4000' }).SLUICE_INTERNAL_URL,
    ).toBe('http://127.0.0.1:4000')
    expect(
      parseEnv({ SLUICE_INTERNAL_URL: 'http://10.0.0.5:3001/' })
        .SLUICE_INTERNAL_URL,
    ).toBe('http://10.0.0.5:3001')
    const shared = { ...hosted, DATABASE_URL: 'postgres://db/sluice' }
    expect(envError(shared)).toContain(
      'SLUICE_INTERNAL_SECRET: required when SLUICE_MODE=hosted with DATABASE_URL',
    )
    expect(envError({ SLUICE_INTERNAL_SECRET: 'short' })).toContain(
      'SLUICE_INTERNAL_SECRET: must be at least 32 characters',
    )
    const secret = 's'.repeat(32)
    expect(
      parseEnv({ ...shared, SLUICE_INTERNAL_SECRET: secret })
        .SLUICE_INTERNAL_SECRET,
    ).toBe(secret)
  })

  it('requires a provider client id and secret together', () => {
    expect(envError({ SUPABASE_CLIENT_ID: 'id' })).toContain(
      'SUPABASE_CLIENT_ID and SUPABASE_CLIENT_SECRET must be set together',
    )
  })

  it('has no metrics port and text logs unless asked, and names a bad value', () => {
    const env = parseEnv({})
    expect(env.METRICS_PORT).toBeUndefined()
    expect(env.METRICS_HOST).toBe('127.0.0.1')
    expect(env.LOG_FORMAT).toBe('text')
    const asked = parseEnv({ METRICS_PORT: '9464', LOG_FORMAT: 'json' })
    expect(asked.METRICS_PORT).toBe(9464)
    expect(asked.LOG_FORMAT).toBe('json')
    expect(parseEnv({ METRICS_PORT: '' }).METRICS_PORT).toBeUndefined()
    expect(envError({ METRICS_PORT: '0' })).toContain('METRICS_PORT')
    expect(envError({ LOG_FORMAT: 'xml' })).toContain('LOG_FORMAT')
  })

  it('reads SMTP_URL and SMTP_FROM, never echoing the URL in an error', () => {
    expect(parseEnv({}).SMTP_URL).toBeUndefined()
    const env = parseEnv({
      SMTP_URL: 'smtps://u:p@mail.example.com:465',
      SMTP_FROM: 'alerts@example.com',
    })
    expect(env.SMTP_URL).toBe('smtps://u:p@mail.example.com:465')
    expect(env.SMTP_FROM).toBe('alerts@example.com')
    const message = envError({ SMTP_URL: 'http://u:hunter2@mail.example.com' })
    expect(message).toContain('SMTP_URL: must be an smtp:// or smtps:// URL')
    expect(message).not.toContain('hunter2')
    expect(envError({ SMTP_FROM: 'nobody' })).toContain(
      'SMTP_FROM: must be an email address',
    )
  })

  it('trusts no proxy unless told how many there are, and names a bad count', () => {
    expect(parseEnv({}).TRUST_PROXY_HOPS).toBe(0)
    expect(parseEnv({ TRUST_PROXY_HOPS: '' }).TRUST_PROXY_HOPS).toBe(0)
    expect(parseEnv({ TRUST_PROXY_HOPS: '2' }).TRUST_PROXY_HOPS).toBe(2)
    for (const bad of ['-1', 'one', '1.5', '11'])
      expect(envError({ TRUST_PROXY_HOPS: bad })).toContain('TRUST_PROXY_HOPS')
  })

  it('reads PORT as a number', () => {
    expect(parseEnv({ PORT: '8080' }).PORT).toBe(8080)
  })

  it.each(['', ' '])('treats PORT=%j as unset, not as port 0', (port) => {
    expect(parseEnv({ PORT: port }).PORT).toBe(5133)
    expect(parseEnv({ LOCAL_LOGIN: port }).localLoginEnabled).toBe(true)
  })

  it.each(['abc', '70000', '-1', '80.5'])(
    'refuses PORT=%s and names PORT in the message',
    (port) => {
      expect(envError({ PORT: port })).toMatch(/^\s*PORT: /m)
    },
  )

  it('names every bad variable at once', () => {
    const message = envError({ PORT: 'abc', SLUICE_MODE: 'cloud' })
    expect(message).toMatch(/^\s*PORT: /m)
    expect(message).toMatch(/^\s*SLUICE_MODE: /m)
  })

  it.each([
    [{ GITHUB_CLIENT_ID: 'id' }, 'GITHUB'],
    [{ GITHUB_CLIENT_SECRET: 'secret' }, 'GITHUB'],
    [{ GOOGLE_CLIENT_ID: 'id' }, 'GOOGLE'],
    [{ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: '' }, 'GOOGLE'],
  ])('refuses a client id without its secret (%o)', (vars, name) => {
    expect(envError(vars)).toContain(
      `${name}_CLIENT_ID and ${name}_CLIENT_SECRET must be set together`,
    )
  })

  it('enables a provider when both its id and secret are set', () => {
    const env = parseEnv({ ...github, ...google })
    expect(env.githubEnabled).toBe(true)
    expect(env.googleEnabled).toBe(true)
  })

  it('treats empty client variables as unset', () => {
    const env = parseEnv({ GITHUB_CLIENT_ID: '', GITHUB_CLIENT_SECRET: '' })
    expect(env.githubEnabled).toBe(false)
  })

  describe('hosted mode', () => {
    it('requires SLUICE_SECRET and PUBLIC_URL', () => {
      const message = envError({ SLUICE_MODE: 'hosted' })
      expect(message).toContain(
        'SLUICE_SECRET: required when SLUICE_MODE=hosted',
      )
      expect(message).toContain('PUBLIC_URL: required when SLUICE_MODE=hosted')
    })

    it('requires PUBLIC_URL even with a secret', () => {
      const message = envError({ ...hosted, PUBLIC_URL: '' })
      expect(message).toContain('PUBLIC_URL')
      expect(message).not.toContain('SLUICE_SECRET')
    })

    it('refuses a SLUICE_SECRET shorter than 32 characters', () => {
      expect(envError({ ...hosted, SLUICE_SECRET: 'short' })).toMatch(
        /SLUICE_SECRET: must be at least 32 characters/,
      )
    })

    it('refuses a PUBLIC_URL that is not a URL', () => {
      expect(envError({ ...hosted, PUBLIC_URL: 'sluice.example.com' })).toMatch(
        /^\s*PUBLIC_URL: /m,
      )
    })

    it('accepts a complete hosted configuration', () => {
      const env = parseEnv({ ...hosted, ...github })
      expect(env.SLUICE_MODE).toBe('hosted')
      expect(env.PUBLIC_URL).toBe('https://sluice.example.com')
    })
  })

  describe('localLoginEnabled', () => {
    it('is on in local mode with no provider', () => {
      expect(parseEnv({}).localLoginEnabled).toBe(true)
    })

    it.each([
      ['GitHub', github],
      ['Google', google],
    ])('is off once %s is configured', (_name, vars) => {
      expect(parseEnv(vars).localLoginEnabled).toBe(false)
    })

    it('is off in hosted mode, even with no provider', () => {
      expect(parseEnv(hosted).localLoginEnabled).toBe(false)
    })

    it('is forced on by LOCAL_LOGIN with a provider', () => {
      expect(
        parseEnv({ ...github, LOCAL_LOGIN: 'true' }).localLoginEnabled,
      ).toBe(true)
    })

    // Anyone could sign in as any email: a hosted Sluice refuses to start that way unless the
    // operator says, in so many words, that this is what they want.
    it.each([
      ['LOCAL_LOGIN=true', { ...hosted, LOCAL_LOGIN: 'true' }],
      ['LOCAL_LOGIN=1', { ...hosted, LOCAL_LOGIN: '1' }],
    ])('refuses %s in hosted mode, naming the override', (_name, vars) => {
      expect(envError(vars)).toMatch(
        /^\s*LOCAL_LOGIN: .*anyone.*DANGEROUSLY_ALLOW_LOCAL_LOGIN_IN_HOSTED_MODE=true/m,
      )
    })

    it('is on in hosted mode only with the dangerous override as well', () => {
      const env = parseEnv({
        ...hosted,
        LOCAL_LOGIN: 'true',
        DANGEROUSLY_ALLOW_LOCAL_LOGIN_IN_HOSTED_MODE: 'true',
      })
      expect(env.localLoginEnabled).toBe(true)
      expect(env.localLoginExposed).toBe(true)
      expect(parseEnv({ LOCAL_LOGIN: 'true' }).localLoginExposed).toBe(false)
    })

    it('is forced off by LOCAL_LOGIN=false', () => {
      expect(parseEnv({ LOCAL_LOGIN: 'false' }).localLoginEnabled).toBe(false)
    })

    it('refuses a LOCAL_LOGIN that is not a boolean', () => {
      expect(envError({ LOCAL_LOGIN: 'yes' })).toMatch(/^\s*LOCAL_LOGIN: /m)
    })
  })

  describe('allowPrivateDatabaseTargets', () => {
    it('is on in local mode and off in hosted mode by default', () => {
      expect(parseEnv({}).allowPrivateDatabaseTargets).toBe(true)
      expect(parseEnv(hosted).allowPrivateDatabaseTargets).toBe(false)
    })

    it('follows ALLOW_PRIVATE_DATABASE_TARGETS in either mode', () => {
      const on = { ...hosted, ALLOW_PRIVATE_DATABASE_TARGETS: 'true' }
      expect(parseEnv(on).allowPrivateDatabaseTargets).toBe(true)
      const off = { ALLOW_PRIVATE_DATABASE_TARGETS: 'false' }
      expect(parseEnv(off).allowPrivateDatabaseTargets).toBe(false)
    })
  })
})

describe('limits', () => {
  it('defaults to 20 sources per team and 10 creates and sign-ins a minute', () => {
    const env = parseEnv({})
    expect(env.MAX_SOURCES_PER_TEAM).toBe(20)
    expect(env.SOURCE_CREATES_PER_MINUTE).toBe(10)
    expect(env.LOCAL_LOGINS_PER_MINUTE).toBe(10)
    expect(env.MAX_UNCLAIMED_SOURCES_PER_IP).toBe(10)
    expect(env.MAX_UNCLAIMED_SOURCES_PER_DATABASE).toBe(3)
    expect(parseEnv({ MAX_SOURCES_PER_TEAM: '50' }).MAX_SOURCES_PER_TEAM).toBe(
      50,
    )
  })

  it('names a limit that is not a positive whole number', () => {
    expect(envError({ MAX_SOURCES_PER_TEAM: '0' })).toMatch(
      /MAX_SOURCES_PER_TEAM: /,
    )
    expect(envError({ LOCAL_LOGINS_PER_MINUTE: 'many' })).toMatch(
      /LOCAL_LOGINS_PER_MINUTE: /,
    )
  })
})
