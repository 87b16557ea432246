// When the shared check explains Supabase's IPv6-only direct host, and when it does not.
import { describe, expect, it } from 'vitest'
import { supabaseUnreachable } from '../../src/server/validation/supabase-host.ts'

const host = 'db.abcdefghijklmnop.supabase.co'
const error = (code: string) => Object.assign(new Error(code), { code })

describe('supabaseUnreachable', () => {
  it.each(['ENETUNREACH', 'EHOSTUNREACH', 'ETIMEDOUT'])(
    'explains %s to an IPv6 address of the direct host',
    (code) => {
      expect(supabaseUnreachable(host, '2600:1f18::1', error(code))).toMatch(
        /IPv4 add-on/,
      )
    },
  )

  it('explains a connection timeout', () => {
    const timeout = new Error('Connection terminated due to connection timeout')
    expect(supabaseUnreachable(host, '2600:1f18::1', timeout)).toMatch(
      /IPv6-only/,
    )
  })

  it('says nothing of an IPv4 address, another host, or a refusal at the other end', () => {
    expect(supabaseUnreachable(host, '3.3.3.3', error('ETIMEDOUT'))).toBeNull()
    expect(
      supabaseUnreachable('db.example.com', '2600:1f18::1', error('ETIMEDOUT')),
    ).toBeNull()
    expect(
      supabaseUnreachable(host, '2600:1f18::1', error('ECONNREFUSED')),
    ).toBeNull()
    expect(supabaseUnreachable(host, '2600:1f18::1', error('28P01'))).toBeNull()
  })
})
