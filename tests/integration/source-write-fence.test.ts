// Writes about a source are fenced by its holder row: a server that another has
// taken the source from (a hung holder woken after its claims session was ended) writes
// neither a state transition nor a health reading; the holder named in source_holders, or any
// server where none is recorded (one server), does.
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createTeam } from '../../src/server/teams/teams.ts'
import { SOURCE_EVENTS } from '../../src/shared/sources.ts'
import {
  writeHealth,
  writeTransition,
} from '../../src/server/sources/runtime/rows.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import { eventNames, insertSource, sourceRow } from '../support/sources.ts'

const control = useControlPlaneDatabase()

describe('writes about a source', () => {
  it('are refused to a server the holder row does not name', async () => {
    const { id: teamId } = await createTeam(control.db, 'Fence')
    const { id } = await insertSource(
      control.db,
      randomBytes(32),
      teamId,
      'postgres://someone:pw@127.0.0.1:1/none',
    )
    const active = {
      state: 'active',
      reason: null,
      event: { name: SOURCE_EVENTS.active, details: {} },
    }
    const reading = {
      walStatus: 'reserved',
      retainedBytes: 10,
      lagBytes: 5,
      forecastSeconds: null,
    }
    const hold = (instanceId: string) =>
      control.db.query(
        `insert into source_holders (source_id, instance_id, internal_url) values ($1, $2, 'http://x')
         on conflict (source_id) do update set instance_id = excluded.instance_id`,
        [id, instanceId],
      )

    await hold('srv-new')
    expect(await writeTransition(control.db, id, active, 'srv-old')).toBe(false)
    await writeHealth(control.db, id, reading, { note: 'x' }, 'srv-old')
    let row = await sourceRow(control.db, id)
    expect(row?.state).toBe('initializing')
    expect(row?.health_checked_at).toBeNull()
    expect(await eventNames(control.db, id)).toEqual([])

    expect(await writeTransition(control.db, id, active, 'srv-new')).toBe(true)
    await writeHealth(control.db, id, reading, null, 'srv-new')
    row = await sourceRow(control.db, id)
    expect(row?.state).toBe('active')
    expect(row?.health_checked_at).not.toBeNull()
    expect(await eventNames(control.db, id)).toEqual([SOURCE_EVENTS.active])

    // No holder recorded (one server, no DATABASE_URL): whoever runs it writes.
    await control.db.query('delete from source_holders where source_id = $1', [
      id,
    ])
    expect(
      await writeTransition(
        control.db,
        id,
        { ...active, state: 'reconnecting' },
        'srv-any',
      ),
    ).toBe(true)
  })
})
