// The URL guard in hosted mode: refused inputs are a 400-style error before any packet leaves,
// proven with a stub resolver and a spy on every socket connect.
import { Socket } from 'node:net'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { classifyAddress } from '../../src/server/validation/addresses.ts'
import { checkDatabase } from '../../src/server/validation/check.ts'
import { RefusedTargetError } from '../../src/server/validation/guard.ts'
import { DatabaseUrlError } from '../../src/shared/postgres-url.ts'

const PUBLIC_ADDRESS = '93.184.215.14'

let connects: unknown[][]

beforeEach(() => {
  connects = []
  // Record, then fail the way a closed port does, so no packet is ever sent.
  vi.spyOn(Socket.prototype, 'connect').mockImplementation(function (
    this: Socket,
    ...args: unknown[]
  ) {
    connects.push(args)
    const error = Object.assign(new Error('connect ECONNREFUSED'), {
      code: 'ECONNREFUSED',
    })
    process.nextTick(() => this.destroy(error))
    return this
  } as typeof Socket.prototype.connect)
})

afterEach(() => {
  vi.restoreAllMocks()
})

const stubResolver = (answers: Record<string, string[]>) =>
  vi.fn(async (host: string) => {
    const found = answers[host]
    if (!found) throw new Error(`stub resolver: ${host} is not stubbed`)
    return found
  })

async function refusal(url: string, resolve = stubResolver({})) {
  const error = await checkDatabase(url, {
    allowPrivate: false,
    resolve,
  }).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(connects).toEqual([])
  return error
}

describe('the guard refuses, with zero connection attempts', () => {
  it.each([
    [
      '?host=',
      'postgres://u:pw@db.example.com/db?host=169.254.169.254',
      'host',
    ],
    [
      '?sslrootcert=',
      'postgres://u:pw@db.example.com/db?sslrootcert=/etc/passwd',
      'sslrootcert',
    ],
    [
      '?options=',
      'postgres://u:pw@db.example.com/db?options=-c%20x%3D1',
      'options',
    ],
  ])(
    'a parameter outside the allowlist (%s), by name',
    async (_n, url, name) => {
      const error = await refusal(url)
      expect(error).toBeInstanceOf(DatabaseUrlError)
      expect((error as Error).message).toContain(`"${name}"`)
    },
  )

  it.each([
    ['an encoded socket path', 'postgres://u:pw@%2Fvar%2Frun%2Fpostgresql/db'],
    ['a lower-case encoded socket path', 'postgres://u:pw@%2ftmp/db'],
    ['a socket: URL', 'socket://u:pw@/var/run/postgresql'],
  ])('%s', async (_n, url) => {
    expect(await refusal(url)).toBeInstanceOf(DatabaseUrlError)
  })

  it.each([
    ['hex IPv4', 'postgres://u:pw@0x7f000001/db'],
    ['decimal IPv4', 'postgres://u:pw@2130706433/db'],
    ['octal IPv4', 'postgres://u:pw@0177.0.0.1/db'],
    ['short IPv4', 'postgres://u:pw@127.1/db'],
    ['IPv4-mapped IPv6', 'postgres://u:pw@[::ffff:127.0.0.1]/db'],
    ['IPv6 loopback', 'postgres://u:pw@[::1]/db'],
    ['link-local IPv4 (metadata)', 'postgres://u:pw@169.254.169.254/db'],
    ['link-local IPv6', 'postgres://u:pw@[fe80::1]/db'],
    ['AWS IPv6 metadata', 'postgres://u:pw@[fd00:ec2::254]/db'],
    ['NAT64', 'postgres://u:pw@[64:ff9b::7f00:1]/db'],
    ['6to4', 'postgres://u:pw@[2002:7f00:1::]/db'],
    ['RFC 1918', 'postgres://u:pw@10.1.2.3/db'],
    ['carrier-grade NAT', 'postgres://u:pw@100.64.0.1/db'],
    ['Azure host endpoint', 'postgres://u:pw@168.63.129.16/db'],
    ['0.0.0.0', 'postgres://u:pw@0.0.0.0/db'],
    ['localhost', 'postgres://u:pw@localhost/db'],
    ['a *.internal name', 'postgres://u:pw@db.corp.internal/db'],
    ['metadata.google.internal', 'postgres://u:pw@metadata.google.internal/db'],
  ])('%s', async (_n, url) => {
    const resolve = stubResolver({})
    expect(await refusal(url, resolve)).toBeInstanceOf(RefusedTargetError)
    expect(resolve).not.toHaveBeenCalled()
  })

  it('a name whose answers hold a public and then a private address', async () => {
    const resolve = stubResolver({
      'db.example.com': [PUBLIC_ADDRESS, '10.0.0.5'],
    })
    const error = await refusal('postgres://u:pw@db.example.com/db', resolve)
    expect(error).toBeInstanceOf(RefusedTargetError)
    expect(resolve).toHaveBeenCalledTimes(1)
  })

  it('says nothing of the password when refusing', async () => {
    const error = await refusal('postgres://u:s3cret-pw@127.0.0.1/db')
    expect((error as Error).message).not.toContain('s3cret-pw')
  })
})

describe('a name that rebinds between lookups', () => {
  it('is looked up once and only its pinned public address is dialled', async () => {
    const resolve = vi
      .fn<(host: string) => Promise<string[]>>()
      .mockResolvedValueOnce([PUBLIC_ADDRESS])
      .mockResolvedValue(['127.0.0.1'])
    const result = await checkDatabase(
      'postgres://u:pw@rebind.example.com/db?sslmode=disable',
      { allowPrivate: false, resolve },
    )
    expect(resolve).toHaveBeenCalledTimes(1)
    expect(connects.length).toBeGreaterThan(0)
    for (const args of connects)
      expect(JSON.stringify(args)).toContain(PUBLIC_ADDRESS)
    expect(result.connection_error).toBe(
      'Could not reach a Postgres server at rebind.example.com:5432.',
    )
  })
})

describe('the private-target setting', () => {
  it('lets loopback through when allowed, and still never link-local', async () => {
    const resolve = stubResolver({ localhost: ['127.0.0.1'] })
    const result = await checkDatabase(
      'postgres://u:pw@localhost:5999/db?sslmode=disable',
      { allowPrivate: true, resolve },
    )
    expect(result.can_connect_without_replication).toBe(false)
    expect(connects.length).toBeGreaterThan(0)
    connects = []
    await expect(
      checkDatabase('postgres://u:pw@169.254.169.254/db', {
        allowPrivate: true,
        resolve,
      }),
    ).rejects.toBeInstanceOf(RefusedTargetError)
    expect(connects).toEqual([])
  })
})

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['2606:4700::1111', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['127.0.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['fd12::1', 'private'],
    ['::ffff:7f00:1', 'private'],
    ['::ffff:169.254.169.254', 'forbidden'],
    ['224.0.0.1', 'forbidden'],
    ['255.255.255.255', 'forbidden'],
    ['ff02::1', 'forbidden'],
    ['::', 'forbidden'],
    ['64:ff9b:1::1', 'forbidden'],
    ['2001:db8::1', 'forbidden'],
    ['not-an-ip', 'forbidden'],
  ])('%s is %s', (address, cls) => {
    expect(classifyAddress(address)).toBe(cls)
  })
})
