// What a source keeps of a pasted URL: no password, a key naming the database, nothing lost.
import { describe, expect, it } from 'vitest'
import { parseSourceUrl } from '../../src/server/sources/create/database-url.ts'
import {
  DatabaseUrlError,
  parseDatabaseUrl,
} from '../../src/shared/postgres-url.ts'

describe('parseSourceUrl', () => {
  it('drops the password and keeps user, host, port and database', () => {
    const source = parseSourceUrl(
      'postgres://app:s3cret-pw@db.example.com:6000/shop',
    )
    expect(source.connectionUrl).toBe(
      'postgresql://app@db.example.com:6000/shop',
    )
    expect(source.connectionUrl).not.toContain('s3cret-pw')
    expect(source.target.password).toBe('s3cret-pw')
    expect(source.databaseKey).toBe('db.example.com:6000/shop')
  })

  it('writes the default port and the default database (the user name)', () => {
    const source = parseSourceUrl('postgresql://app:pw@db.example.com')
    expect(source.connectionUrl).toBe(
      'postgresql://app@db.example.com:5432/app',
    )
    expect(source.databaseKey).toBe('db.example.com:5432/app')
  })

  it('lower-cases the host but not the database name', () => {
    const upper = parseSourceUrl('postgres://app:pw@DB.Example.COM/Sales')
    const lower = parseSourceUrl(
      'postgres://other:pw2@db.example.com:5432/Sales',
    )
    expect(upper.databaseKey).toBe('db.example.com:5432/Sales')
    expect(lower.databaseKey).toBe(upper.databaseKey)
    expect(
      parseSourceUrl('postgres://app@db.example.com/sales').databaseKey,
    ).not.toBe(upper.databaseKey)
  })

  it('names the same IPv4 address however it is written', () => {
    const keys = ['127.0.0.1', '0x7f000001', '127.1'].map(
      (host) => parseSourceUrl(`postgres://u:p@${host}/db`).databaseKey,
    )
    expect(new Set(keys)).toEqual(new Set(['127.0.0.1:5432/db']))
  })

  it('keeps IPv6 hosts in brackets, in canonical form', () => {
    const source = parseSourceUrl(
      'postgres://u:pw@[2001:DB8:0:0:0:0:0:1]:5433/db',
    )
    expect(source.connectionUrl).toBe('postgresql://u@[2001:db8::1]:5433/db')
    expect(source.databaseKey).toBe('[2001:db8::1]:5433/db')
  })

  it('percent-encodes user and database, and decodes the password', () => {
    const source = parseSourceUrl(
      'postgres://postgres.abc%40x:p%40ss%2Fw%3Ard@db.example.com/my%20db',
    )
    expect(source.target.user).toBe('postgres.abc@x')
    expect(source.target.password).toBe('p@ss/w:rd')
    expect(source.connectionUrl).toBe(
      'postgresql://postgres.abc%40x@db.example.com:5432/my%20db',
    )
    for (const part of ['p@ss', 'p%40ss', 'w%3Ard', 'w:rd'])
      expect(source.connectionUrl).not.toContain(part)
  })

  it('keeps the connection parameters that were given, and only those', () => {
    expect(
      parseSourceUrl(
        'postgres://u:pw@db.example.com/db?sslmode=require&channel_binding=require',
      ).connectionUrl,
    ).toBe(
      'postgresql://u@db.example.com:5432/db?sslmode=require&channel_binding=require',
    )
    expect(
      parseSourceUrl('postgres://u:pw@db.example.com/db?sslmode=prefer')
        .connectionUrl,
    ).toBe('postgresql://u@db.example.com:5432/db?sslmode=prefer')
  })

  it('gives back a URL that parses to the same target without the password', () => {
    const input =
      'postgres://we%20ird:pw@[::1]:6543/d%C3%B6b?channel_binding=disable'
    const source = parseSourceUrl(input)
    expect(parseDatabaseUrl(source.connectionUrl)).toEqual({
      ...parseDatabaseUrl(input),
      password: '',
    })
  })

  it('refuses what the readiness check refuses, without the password', () => {
    for (const input of [
      'postgres://u:hunter22@h:port/db',
      'postgres://u:hunter22@h/db?host=10.0.0.1',
      'mysql://u:hunter22@h/db',
    ]) {
      let error: unknown
      try {
        parseSourceUrl(input)
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(DatabaseUrlError)
      expect((error as Error).message).not.toContain('hunter22')
    }
  })
})
