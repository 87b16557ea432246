import { describe, expect, it } from 'vitest'
import { parseDatabaseUrl } from '../../src/shared/postgres-url.ts'
import {
  credentialsComplete,
  DEFAULT_CREDENTIALS,
  supabaseConnectionString,
} from '../../src/app/features/providers/supabase-connection-string.ts'

const base = {
  projectRef: 'abcdefghijklmnop',
  user: 'postgres',
  password: 'secret',
  database: 'postgres',
}

describe('supabaseConnectionString', () => {
  it("uses the project's direct host on port 5432 with sslmode=require", () => {
    expect(supabaseConnectionString(base)).toBe(
      'postgresql://postgres:secret@db.abcdefghijklmnop.supabase.co:5432/postgres?sslmode=require',
    )
  })

  it('percent-encodes a password with URL delimiters so the host stays the host', () => {
    const password = 'p@ss:w/rd?#%&=+ é'
    const url = supabaseConnectionString({ ...base, password })
    const parsed = new URL(url)
    expect(parsed.hostname).toBe('db.abcdefghijklmnop.supabase.co')
    expect(parsed.port).toBe('5432')
    expect(decodeURIComponent(parsed.password)).toBe(password)
    expect(parsed.searchParams.get('sslmode')).toBe('require')
  })

  it('builds a URL the shared Postgres URL parser accepts', () => {
    const url = supabaseConnectionString({ ...base, password: 'a@b%c' })
    expect(() => parseDatabaseUrl(url)).not.toThrow()
  })

  it('trims and encodes user and database, and takes a host template', () => {
    const url = supabaseConnectionString(
      { ...base, user: ' app user ', database: ' my/db ' },
      '{ref}.localhost',
    )
    expect(url).toBe(
      'postgresql://app%20user:secret@abcdefghijklmnop.localhost:5432/my%2Fdb?sslmode=require',
    )
  })

  it("keeps a template's own port (the server's SUPABASE_DB_HOST_TEMPLATE)", () => {
    expect(supabaseConnectionString(base, '127.0.0.1:6000')).toBe(
      'postgresql://postgres:secret@127.0.0.1:6000/postgres?sslmode=require',
    )
  })
})

describe('credentialsComplete', () => {
  it('defaults user and database to postgres, the password empty', () => {
    expect(DEFAULT_CREDENTIALS).toEqual({
      user: 'postgres',
      database: 'postgres',
      password: '',
    })
  })

  it('needs a project and every field', () => {
    expect(credentialsComplete(base)).toBe(true)
    expect(credentialsComplete({ ...base, projectRef: '' })).toBe(false)
    expect(credentialsComplete({ ...base, password: '' })).toBe(false)
    expect(credentialsComplete({ ...base, user: '  ' })).toBe(false)
    expect(credentialsComplete({ ...base, database: '' })).toBe(false)
  })
})
