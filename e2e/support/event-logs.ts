// A source of the signed-in user's team with one event of a known time and long details,
// written straight into the control plane: the event log's layout is under test, not the
// engine, so the source points at a database that is never there.
import type { APIRequestContext } from '@playwright/test'
import pg from 'pg'
import { expect } from './fixtures.ts'
import { controlPlaneUrl } from './source-databases.ts'

export const KNOWN_EVENT = {
  name: 'replication_health_warning',
  emittedAt: '2024-03-05T14:07:09.250Z',
  // Words enough to need several lines on a phone, none so long it cannot wrap.
  reason:
    'The replication slot keeps more write-ahead log than max_wal_size allows, so the database disk may fill up',
}

export async function addSourceWithKnownEvent(
  request: APIRequestContext,
  baseURL: string,
): Promise<{ teamId: string; sourceId: string }> {
  const teams = (await (await request.get('/api/v1/teams')).json()) as {
    id: string
  }[]
  const teamId = teams[0]?.id
  if (!teamId) throw new Error('the signed-in user has no team')
  const response = await request.put('/api/v1/sources?skip_validation=true', {
    data: {
      region: 'eu-west-1',
      team_id: teamId,
      database_url: 'postgres://app:secret@127.0.0.1:1/app',
    },
    headers: { origin: baseURL },
  })
  expect(response.status()).toBe(201)
  const { id: sourceId } = (await response.json()) as { id: string }
  const control = new pg.Client({ connectionString: controlPlaneUrl() })
  await control.connect()
  try {
    await control.query(
      `insert into source_event_logs (source_id, event_name, event_details, instance_id, emitted_at)
       values ($1, $2, $3, 'engine-e2e-0123456789abcdef', $4)`,
      [
        sourceId,
        KNOWN_EVENT.name,
        JSON.stringify({ reason: KNOWN_EVENT.reason }),
        KNOWN_EVENT.emittedAt,
      ],
    )
  } finally {
    await control.end()
  }
  return { teamId, sourceId }
}
