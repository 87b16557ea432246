// A source's figures over time in the control plane (sources/metrics/rows.ts): each sample is a
// minute point and folds into its hour's point (rates averaged, gauges at their peak), points
// past their resolution's retention go (an hour of minutes, 7 days of hours), and each point
// keeps its busiest shapes, the hour's too.
import { randomBytes, randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { writeMetricPoint } from '../../src/server/sources/metrics/rows.ts'
import type {
  ShapePoint,
  SourcePoint,
} from '../../src/server/sources/metrics/sample.ts'
import { useControlPlaneDatabase } from '../support/database.ts'

const control = useControlPlaneDatabase()
const HOUR = 60 * 60_000
// An hour's start, long ago: rows are kept relative to the samples' own times.
const START = Date.UTC(2026, 0, 5, 10)

async function newSource(): Promise<string> {
  const { rows } = await control.db.query<{ id: string }>(
    `insert into teams (name) values ('Metrics') returning id`,
  )
  const id = randomUUID()
  await control.db.query(
    `insert into sources (id, team_id, region, connection_url, encrypted_password,
                          source_secret, state)
     values ($1, $2, 'eu-west-1', 'postgresql://u@db.example/app', '', $3, 'active')`,
    [id, rows[0]?.id, randomBytes(24).toString('base64url')],
  )
  return id
}

const point = (minute: number): SourcePoint => ({
  changes_per_second: minute,
  writes_per_minute: 2 * minute,
  retained_wal_bytes: 1_000 + minute,
  lag_bytes: minute % 7,
  clients: minute % 5,
  requests_per_minute: 10,
  bytes_per_minute: 100,
  snapshots: minute % 2,
  snapshot_ms_max: minute % 2 ? minute : null,
})

const shapes = (minute: number): ShapePoint[] =>
  // Ten each minute (sample.ts picks them), a different ten: the hour keeps its busiest ten.
  Array.from({ length: 10 }, (_, i) => ({
    handle: `h${(minute + i) % 30}`,
    label: `public.items where n = ${i}`,
    clients: 1,
    requests_per_minute: i,
    bytes_per_minute: 100 * i,
  }))

type Stored = { resolution: string; at: Date } & Record<string, number | null>

async function stored(sourceId: string, table = 'source_metrics') {
  const { rows } = await control.db.query<Stored>(
    `select * from ${table} where source_id = $1 order by resolution desc, at`,
    [sourceId],
  )
  return rows
}

let sourceId: string

beforeAll(async () => {
  sourceId = await newSource()
  // Two and a half hours of minutes.
  for (let minute = 0; minute < 150; minute++)
    await writeMetricPoint(
      control.db,
      sourceId,
      START + minute * 60_000,
      point(minute),
      shapes(minute),
    )
}, 60_000)

describe('figures over time', () => {
  it('keeps the last hour by the minute', async () => {
    const minutes = (await stored(sourceId)).filter(
      (row) => row.resolution === 'minute',
    )
    expect(minutes).toHaveLength(60)
    expect(minutes[0]?.at.getTime()).toBe(START + 90 * 60_000)
    expect(minutes.at(-1)).toMatchObject({
      samples: 1,
      changes_per_second: 149,
      retained_wal_bytes: '1149',
    })
  })

  it('rolls each hour up: rates averaged, gauges at their peak, snapshots summed', async () => {
    const hours = (await stored(sourceId)).filter(
      (row) => row.resolution === 'hour',
    )
    expect(hours.map((row) => row.at.getTime())).toEqual([
      START,
      START + HOUR,
      START + 2 * HOUR,
    ])
    expect(hours[0]).toMatchObject({
      samples: 60,
      // The mean of 0..59, and of twice that.
      changes_per_second: 29.5,
      writes_per_minute: 59,
      retained_wal_bytes: '1059',
      lag_bytes: '6',
      clients: 4,
      requests_per_minute: 10,
      snapshots: 30,
      snapshot_ms_max: 59,
    })
    expect(hours[2]).toMatchObject({ samples: 30, changes_per_second: 134.5 })
  })

  it('keeps the busiest shapes of each minute and of each hour', async () => {
    const rows = await stored(sourceId, 'source_shape_metrics')
    const byPoint = new Map<string, number>()
    for (const row of rows) {
      const key = `${row.resolution} ${row.at.getTime()}`
      byPoint.set(key, (byPoint.get(key) ?? 0) + 1)
    }
    expect(Math.max(...byPoint.values())).toBe(10)
    expect(
      [...byPoint.keys()].filter((key) => key.startsWith('hour')),
    ).toHaveLength(3)
    expect(
      [...byPoint.keys()].filter((key) => key.startsWith('minute')),
    ).toHaveLength(60)
  })

  it('drops hours past 7 days', async () => {
    const later = START + 8 * 24 * HOUR
    await writeMetricPoint(control.db, sourceId, later, point(1), [])
    const rows = await stored(sourceId)
    expect(rows.map((row) => [row.resolution, row.at.getTime()])).toEqual([
      ['minute', later],
      ['hour', later],
    ])
    expect(await stored(sourceId, 'source_shape_metrics')).toEqual([])
  })

  it('writes nothing for a source forgotten meanwhile', async () => {
    const gone = await newSource()
    await control.db.query('delete from sources where id = $1', [gone])
    await writeMetricPoint(control.db, gone, START, point(1), shapes(1))
    expect(await stored(gone)).toEqual([])
  })
})
