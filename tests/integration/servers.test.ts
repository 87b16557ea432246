// Several server processes on one control plane (issue 20): each claims only the sources of
// its regions (SLUICE_REGIONS), and every event a server writes names it (SLUICE_INSTANCE_ID).
import { chmod, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SOURCE_EVENTS } from '../../src/shared/sources.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import {
  createSource,
  dropLeftSlots,
  signIn,
  sourceDatabase,
  startNode,
  stopNode,
  type Node,
} from '../support/servers.ts'

// A busy machine: a source takes seconds to become active.
const WAIT = { timeout: 60_000, interval: 100 }

let root: string
let control: TestDatabase
const databases: { drop(): Promise<void> }[] = []
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sluice-servers-'))
  await chmod(root, 0o755)
  control = await createTestDatabase()
})
afterAll(async () => {
  await dropLeftSlots(control)
  await control.drop()
  for (const database of databases) await database.drop()
  await rm(root, { recursive: true, force: true, maxRetries: 5 })
})

/** Who wrote each of the source's events (the API's create aside). */
async function writers(sourceId: string) {
  const { rows } = await control.db.query<{ instance_id: string }>(
    `select distinct instance_id from source_event_logs
      where source_id = $1 and event_name <> $2`,
    [sourceId, SOURCE_EVENTS.created],
  )
  return rows.map((row) => row.instance_id)
}

async function stateOf(sourceId: string) {
  const { rows } = await control.db.query<{ state: string }>(
    'select state from sources where id = $1',
    [sourceId],
  )
  return rows[0]?.state
}

describe('two servers in two regions on one control plane', () => {
  let eu: Node
  let us: Node
  beforeAll(async () => {
    ;[eu, us] = await Promise.all([
      startNode(control, root, 'srv-eu', { SLUICE_REGIONS: 'eu-west-1' }),
      startNode(control, root, 'srv-us', { SLUICE_REGIONS: 'us-east-1' }),
    ])
  }, 120_000)
  afterAll(async () => {
    await Promise.all([stopNode(eu), stopNode(us)])
  })

  it('each holds only its region’s sources, and the events name the server that wrote them', async () => {
    const user = await signIn(eu.base, 'regions@example.com')
    const [euDb, usDb] = await Promise.all([sourceDatabase(), sourceDatabase()])
    databases.push(euDb, usDb)
    // Both made through the EU server: where a source is created does not decide who runs it.
    const euSource = await createSource(eu.base, user, 'eu-west-1', euDb.url)
    const usSource = await createSource(eu.base, user, 'us-east-1', usDb.url)

    await expect.poll(() => stateOf(euSource.id), WAIT).toBe('active')
    await expect.poll(() => stateOf(usSource.id), WAIT).toBe('active')
    expect(await writers(euSource.id)).toEqual(['srv-eu'])
    expect(await writers(usSource.id)).toEqual(['srv-us'])
    const { rows } = await control.db.query<{ instance_id: string }>(
      'select instance_id from source_event_logs where source_id = $1 and event_name = $2',
      [usSource.id, SOURCE_EVENTS.created],
    )
    expect(rows).toEqual([{ instance_id: 'srv-eu' }])

    // Each follows the control plane on a slot of its own (one shared slot would stall one).
    for (const node of [eu, us])
      await expect
        .poll(() => node.output(), WAIT)
        .toContain('control-plane sync active')
  }, 120_000)
})
