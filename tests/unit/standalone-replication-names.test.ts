// The standalone engine's slot and publication names: one pair per database, every one a
// valid slot name within Postgres's 63 bytes, and Electric's for a stream id.
import { describe, expect, it } from 'vitest'
import {
  electricNames,
  MAX_STREAM_ID_LENGTH,
  replicationNames,
  standaloneNames,
} from '../../src/engine/replication/names.ts'

const SLOT_NAME = /^[a-z0-9_]{1,63}$/

describe('standalone names', () => {
  it('name the database, so two databases of one cluster never share a slot', () => {
    expect(standaloneNames('app')).toEqual({
      slot: 'sluice_standalone_app',
      publication: 'sluice_standalone_app',
    })
    const names = [
      'app',
      'App',
      'a-p-p',
      'a_p_p',
      'x'.repeat(63),
      `${'x'.repeat(62)}y`,
    ]
    const slots = names.map((name) => standaloneNames(name).slot)
    expect(new Set(slots).size).toBe(names.length)
    for (const slot of slots) expect(slot).toMatch(SLOT_NAME)
  })

  it('never take the older name of every database, nor a server source’s', () => {
    expect(standaloneNames('standalone').slot).not.toBe(
      replicationNames('standalone').slot,
    )
  })

  it("are Electric's for a stream id, the longest one still within 63 bytes", () => {
    expect(electricNames('default')).toEqual({
      slot: 'electric_slot_default',
      publication: 'electric_publication_default',
    })
    const longest = electricNames('a'.repeat(MAX_STREAM_ID_LENGTH))
    expect(longest.publication).toHaveLength(63)
    expect(longest.slot).toMatch(SLOT_NAME)
  })
})
