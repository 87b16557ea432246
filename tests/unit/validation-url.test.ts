// The URL allowlist and the pooler hints: what a visitor's URL becomes before anything connects.
import { describe, expect, it } from 'vitest'
import {
  DatabaseUrlError,
  parseDatabaseUrl,
} from '../../src/shared/postgres-url.ts'
import { findPooler } from '../../src/server/validation/pooler.ts'

const message = (url: string) => {
  try {
    parseDatabaseUrl(url)
  } catch (error) {
    expect(error).toBeInstanceOf(DatabaseUrlError)
    return (error as Error).message
  }
  throw new Error(`${url} was accepted`)
}

describe('parseDatabaseUrl', () => {
  it('reads every part, decoded, with libpq defaults', () => {
    expect(
      parseDatabaseUrl(
        'postgresql://me:p%40ss%2Fw@DB.Example.com/app?sslmode=require',
      ),
    ).toEqual({
      host: 'db.example.com',
      port: 5432,
      user: 'me',
      password: 'p@ss/w',
      database: 'app',
      sslmode: 'require',
      channelBinding: 'prefer',
    })
    expect(parseDatabaseUrl('postgres://me@h:6000').database).toBe('me')
  })

  it.each([
    ['0x7f000001', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
  ])('normalizes the host %s to %s', (host, normalized) => {
    expect(parseDatabaseUrl(`postgres://u@${host}/db`).host).toBe(normalized)
  })

  it.each([
    [
      'postgres://u:pw@h/db?host=x',
      'The URL parameter "host" is not supported',
    ],
    ['postgres://u:pw@h/db?sslmode=off', 'Unsupported sslmode "off"'],
    ['postgres://u:pw@h:54x/db', 'The port must be a number'],
    ['postgres://u:pw@h:70000/db', 'The port must be a number'],
    ['http://u:pw@h/db', 'postgres:// or postgresql://'],
    ['postgres:///db', 'must name a host'],
    ['postgres://h/db', 'must name a user'],
    ['postgres://u:p%zz@h/db', 'Special characters must be URL encoded'],
    ['postgres://u:pw@a,b/db', 'not a valid host name'],
  ])('refuses %s', (url, words) => {
    expect(message(url)).toContain(words)
  })

  it('never repeats the password', () => {
    for (const url of [
      'postgres://u:topsecret@h:x/db',
      'postgres://u:topsecret@/db',
      'postgres://u:topsecret@h/db?sslkey=/k',
    ])
      expect(message(url)).not.toContain('topsecret')
  })
})

describe('findPooler', () => {
  const target = (url: string) => findPooler(parseDatabaseUrl(url))

  it('suggests the direct host for a Supabase pooler', () => {
    expect(
      target(
        'postgres://postgres.abcdefgh@aws-0-eu-west-1.pooler.supabase.com:6543/postgres',
      ),
    ).toEqual({
      pooler_host: true,
      suggested_direct_host: 'db.abcdefgh.supabase.co',
    })
  })

  it('drops -pooler from a Neon host', () => {
    expect(
      target(
        'postgres://me@ep-cool-rain-123-pooler.eu-central-1.aws.neon.tech/neondb',
      ),
    ).toEqual({
      pooler_host: true,
      suggested_direct_host: 'ep-cool-rain-123.eu-central-1.aws.neon.tech',
    })
  })

  it('flags PgBouncer ports without a suggestion, and leaves direct hosts alone', () => {
    expect(target('postgres://me@db.example.com:6432/app')).toEqual({
      pooler_host: true,
      suggested_direct_host: null,
    })
    expect(
      target('postgres://me@db.abcdefgh.supabase.co:5432/postgres'),
    ).toEqual({
      pooler_host: false,
      suggested_direct_host: null,
    })
  })
})

describe('a password with unencoded special characters', () => {
  // The password is '4711?hunter22', '47/hunter22' or '47#hunter22': the part after '?', '/'
  // or '#' spills into the query, the path or the fragment, and the rest reads as a port.
  it.each([
    'postgres://u:4711?hunter22@h/db',
    'postgres://u:4711?sslmode=hunter22@h/db',
    'postgres://u:47/hunter22@h',
    'postgres://u:47#hunter22@h/db',
  ])('is refused without quoting a piece of it: %s', (url) => {
    expect(message(url)).toBe(
      'Invalid database URL provided. Special characters must be URL encoded.',
    )
  })
})
