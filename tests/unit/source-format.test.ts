import { describe, expect, it } from 'vitest'
import type { SourceEventLog } from '../../src/shared/entities.ts'
import {
  eventDetailsLines,
  formatBytes,
  formatDateTime,
  formatDateTimeToSecond,
  formatFullTimestamp,
  walForecastText,
  walStatusWarns,
} from '../../src/app/features/sources/format.ts'
import {
  cleanupSql,
  reportedSlot,
} from '../../src/app/features/sources/slot-cleanup.ts'

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.00 KiB'],
    [1536, '1.50 KiB'],
    [15 * 1024 * 1024, '15.0 MiB'],
    [300 * 1024 ** 3, '300 GiB'],
  ])('%d bytes read %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text)
  })

  it('passes a value that is no size through', () => {
    expect(formatBytes(-1)).toBe('-1')
    expect(formatBytes(Number.NaN)).toBe('NaN')
  })
})

describe('walStatusWarns', () => {
  it.each(['extended', 'unreserved', 'lost'])('warns on %s', (status) => {
    expect(walStatusWarns(status)).toBe(true)
  })

  it.each(['reserved', null])('does not warn on %s', (status) => {
    expect(walStatusWarns(status)).toBe(false)
  })
})

describe('formatDateTime', () => {
  it('gives text that is not a date back as it is', () => {
    expect(formatDateTime('soon')).toBe('soon')
  })

  it('formats a timestamp with its year', () => {
    expect(formatDateTime('2024-05-01T10:00:00.000Z')).toContain('2024')
  })
})

describe('formatDateTimeToSecond', () => {
  it('shows the seconds (in any whole-minute time zone)', () => {
    expect(formatDateTimeToSecond('2024-03-05T14:07:09.250Z')).toMatch(
      /\b\d{1,2}:\d\d:09\b/,
    )
    expect(formatDateTimeToSecond('2024-03-05T14:07:09.250Z')).toContain('2024')
  })

  it('gives text that is not a date back as it is', () => {
    expect(formatDateTimeToSecond('soon')).toBe('soon')
  })
})

describe('formatFullTimestamp', () => {
  it('ends with the exact instant in UTC, milliseconds included', () => {
    expect(formatFullTimestamp('2024-03-05 14:07:09.25+00')).toMatch(
      /:09\b.* \(2024-03-05T14:07:09\.250Z\)$/,
    )
  })

  it('gives text that is not a date back as it is', () => {
    expect(formatFullTimestamp('soon')).toBe('soon')
  })
})

describe('eventDetailsLines', () => {
  it('shows an object as key: value lines, nested values as JSON', () => {
    expect(
      eventDetailsLines({
        slot: 'sluice_x',
        shapes: 3,
        ok: true,
        extra: { a: 1 },
        none: null,
      }),
    ).toEqual([
      'slot: sluice_x',
      'shapes: 3',
      'ok: true',
      'extra: {"a":1}',
      'none: -',
    ])
  })

  it('shows a details string as it is, and nothing for none', () => {
    expect(eventDetailsLines('connection refused')).toEqual([
      'connection refused',
    ])
    expect(eventDetailsLines(null)).toEqual([])
    expect(eventDetailsLines({})).toEqual([])
  })
})

const log = (
  event_name: string,
  event_details: Record<string, unknown>,
): SourceEventLog => ({
  id: crypto.randomUUID(),
  source_id: '00000000-0000-4000-8000-000000000001',
  event_name,
  event_details,
  instance_id: 'engine-1',
  emitted_at: '2024-05-01T10:00:00.000Z',
})

describe('reportedSlot', () => {
  it('takes the newest slot event (logs are newest first)', () => {
    expect(
      reportedSlot([
        log('source_error', { reason: 'x' }),
        log('replication_slot_recreated', {
          slot: 'sluice_new',
          reason: 'lost',
        }),
        log('replication_slot_created', {
          slot: 'sluice_old',
          publication: 'sluice_old',
        }),
      ]),
    ).toEqual({ slot: 'sluice_new', publication: null })
  })

  it('reads slot and publication from the created event', () => {
    expect(
      reportedSlot([
        log('replication_slot_created', {
          slot: 'sluice_ab_12',
          publication: 'sluice_ab_12',
        }),
      ]),
    ).toEqual({ slot: 'sluice_ab_12', publication: 'sluice_ab_12' })
  })

  it('knows no slot without an event, or with a name that is no slot name', () => {
    expect(reportedSlot(undefined)).toBeNull()
    expect(
      reportedSlot([log('source_active', { slot: 'sluice_a' })]),
    ).toBeNull()
    expect(
      reportedSlot([
        log('replication_slot_created', { slot: "x'); drop table t; --" }),
      ]),
    ).toBeNull()
  })
})

describe('cleanupSql', () => {
  it('drops the named slot and publication', () => {
    expect(cleanupSql({ slot: 'sluice_a', publication: 'sluice_a' })).toBe(
      "select pg_drop_replication_slot('sluice_a');\ndrop publication if exists sluice_a;",
    )
  })

  it("lists Sluice's slots when the name is not known", () => {
    const sql = cleanupSql(null)
    expect(sql).toContain(
      "select slot_name from pg_replication_slots where slot_name like 'sluice_%';",
    )
    expect(sql).toContain('pg_drop_replication_slot')
  })
})

describe('walForecastText', () => {
  it('says when the slot would be invalidated, and nothing without a forecast', () => {
    expect(walForecastText(42 * 60)).toBe(
      'Slot invalidated in about 42 min at the current rate',
    )
    expect(walForecastText(5)).toBe(
      'Slot invalidated in under a minute at the current rate',
    )
    expect(walForecastText(null)).toBeNull()
  })
})
