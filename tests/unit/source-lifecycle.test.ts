// The pure part of running a source: supervisor reports to states, reasons and events, and
// whether a health reading is worth writing or warning about.
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_HEALTH_LIMITS,
  healthWarning,
  type HealthReading,
} from '../../src/server/sources/runtime/health.ts'
import {
  describeProblem,
  transition,
  type SourceSnapshot,
} from '../../src/server/sources/runtime/lifecycle.ts'
import { ADDRESS_REFUSED } from '../../src/engine/pg/pinned-socket.ts'
import { problemOf } from '../../src/server/sources/runtime/connection-url.ts'

const context = { slot: 'sluice_x', publication: 'sluice_x', role: 'app' }
const at = (state: string, reason: string | null = null): SourceSnapshot => ({
  state,
  reason,
})

describe('the source lifecycle', () => {
  it('logs the slot as created for a new source and recreated later', () => {
    expect(
      transition(
        at('initializing'),
        { kind: 'slot-made', cause: 'missing' },
        context,
      ),
    ).toEqual({
      state: 'initializing',
      reason: null,
      event: {
        name: 'replication_slot_created',
        details: { slot: 'sluice_x', publication: 'sluice_x' },
      },
    })
    expect(
      transition(at('active'), { kind: 'slot-made', cause: 'lost' }, context),
    ).toEqual({
      state: 'active',
      reason: null,
      event: {
        name: 'replication_slot_recreated',
        details: { slot: 'sluice_x', reason: 'lost' },
      },
    })
  })

  it('logs the slot as created for a new source whose first try failed before it was made', () => {
    const retrying = { ...at('reconnecting', 'timeout'), started: false }
    expect(
      transition(retrying, { kind: 'slot-made', cause: 'missing' }, context)
        ?.event.name,
    ).toBe('replication_slot_created')
    const restarted = { ...at('reconnecting', 'timeout'), started: true }
    expect(
      transition(restarted, { kind: 'slot-made', cause: 'missing' }, context)
        ?.event.name,
    ).toBe('replication_slot_recreated')
  })

  it('names every statement the engine ran on the database, keeping the state', () => {
    const statements = ['ALTER TABLE "public"."t" REPLICA IDENTITY FULL;']
    expect(
      transition(at('active'), { kind: 'altered', statements }, context),
    ).toEqual({
      state: 'active',
      reason: null,
      event: { name: 'database_altered', details: { statements } },
    })
  })

  it('goes active once, with one event, and clears the reason', () => {
    const active = { kind: 'status', status: 'active' } as const
    for (const state of ['initializing', 'reconnecting', 'error'])
      expect(transition(at(state, 'why'), active, context)).toEqual({
        state: 'active',
        reason: null,
        event: { name: 'source_active', details: { slot: 'sluice_x' } },
      })
    expect(transition(at('active'), active, context)).toBeNull()
  })

  it('writes one reconnecting per outage, whatever each retry reports', () => {
    const refused = {
      kind: 'status',
      status: 'reconnecting',
      problem: {
        code: 'ECONNREFUSED',
        message: 'connect ECONNREFUSED 10.0.0.1:5432',
      },
    } as const
    const first = transition(at('active'), refused, context)
    expect(first?.state).toBe('reconnecting')
    expect(first?.event.name).toBe('source_reconnecting')
    expect(first?.reason).toMatch(/^The database server cannot be reached/)
    expect(first?.event.details).toEqual({ reason: first?.reason })
    const terminated = {
      kind: 'status',
      status: 'reconnecting',
      problem: { code: '57P01', message: 'terminating connection' },
    } as const
    expect(transition(at('reconnecting', 'x'), terminated, context)).toBeNull()
  })

  it('turns fatal problems into an error a user can act on', () => {
    const error = (code: string, message: string) =>
      transition(
        at('active'),
        { kind: 'status', status: 'error', problem: { code, message } },
        context,
      )
    expect(
      error('42501', 'permission denied to start WAL sender')?.reason,
    ).toBe(
      'Role "app" lacks the REPLICATION attribute, so changes cannot be streamed. ' +
        'Run as a superuser: ALTER ROLE "app" WITH REPLICATION;',
    )
    expect(
      error('55000', 'logical decoding requires "wal_level" >= "logical"')
        ?.reason,
    ).toMatch(/^wal_level is no longer logical/)
    expect(
      error('28P01', 'password authentication failed for user "app"')?.reason,
    ).toMatch(/^Authentication failed/)
    expect(error('3D000', 'database "gone" does not exist')?.reason).toBe(
      'The database no longer exists on the server.',
    )
    const setup =
      'Role "app" may not create replication slots. Run as a superuser: ALTER ROLE "app" WITH REPLICATION;'
    expect(error('42501', setup)?.reason).toBe(setup)
    expect(error('42501', setup)?.event).toEqual({
      name: 'source_error',
      details: { reason: setup },
    })
  })

  it('writes an error again only when its reason changes', () => {
    const signal = {
      kind: 'status',
      status: 'error',
      problem: { code: '3D000', message: 'database "gone" does not exist' },
    } as const
    const first = transition(at('active'), signal, context)
    expect(
      transition(at('error', first?.reason ?? ''), signal, context),
    ).toBeNull()
    expect(
      transition(at('error', 'something else'), signal, context)?.event.name,
    ).toBe('source_error')
  })

  it('ignores starting and stopped: detaching is not a state change', () => {
    for (const status of ['starting', 'stopped'] as const)
      expect(
        transition(at('active'), { kind: 'status', status }, context),
      ).toBeNull()
  })

  it('settles a failed removal in error with one delete_failed', () => {
    const failed = {
      kind: 'delete-failed',
      problem: {
        code: 'ECONNREFUSED',
        message: 'connect ECONNREFUSED 10.0.0.1:5432',
      },
    } as const
    const first = transition(at('reconnecting', 'down'), failed, context)
    expect(first?.state).toBe('error')
    expect(first?.event.name).toBe('delete_failed')
    expect(first?.reason).toContain('sluice_x')
    expect(
      transition(at('error', first?.reason ?? ''), failed, context),
    ).toBeNull()
  })

  it('marks an unusable source as error once', () => {
    const unusable = { kind: 'unusable', reason: 'cannot decrypt' } as const
    expect(transition(at('initializing'), unusable, context)?.event).toEqual({
      name: 'source_error',
      details: { reason: 'cannot decrypt' },
    })
    expect(
      transition(at('error', 'cannot decrypt'), unusable, context),
    ).toBeNull()
  })

  it('tells no network failure from another, and repeats no address or error code', () => {
    // A closed port, a filtered one, a host that does not answer and a port that speaks
    // something else than Postgres must read alike: the reason is no port scanner.
    const failures = [
      { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:6379' },
      { code: 'ETIMEDOUT', message: 'connect ETIMEDOUT 10.1.2.3:5432' },
      { code: 'EHOSTUNREACH', message: 'connect EHOSTUNREACH 10.1.2.3:5432' },
      { code: 'ECONNRESET', message: 'read ECONNRESET' },
      // Five capitals, but Node's, not a SQLSTATE: their messages name addresses too.
      { code: 'EPERM', message: 'connect EPERM 10.1.2.3:5432' },
      { code: 'EPIPE', message: 'write EPIPE' },
      { message: 'timeout expired' },
      { message: 'Connection terminated unexpectedly' },
      { message: 'There was an error establishing an SSL connection' },
      { message: 'something odd' },
    ]
    const reasons = new Set(failures.map((p) => describeProblem(p)))
    expect(reasons.size).toBe(1)
    const [reason] = reasons
    expect(reason).toMatch(/^The database server cannot be reached/)
    expect(reason).not.toMatch(/\d+\.\d+|E[A-Z]{4,}|timeout|terminated|SSL/)
  })

  it('says a refused address is refused, naming no address, and makes it an error', () => {
    const refused = {
      code: ADDRESS_REFUSED,
      message: 'anything the pinner said about 127.0.0.1',
    }
    const reason = describeProblem(refused)
    expect(reason).toMatch(
      /^The database host resolves to an address Sluice may not connect to/,
    )
    expect(reason).not.toContain('127.0.0.1')
    const change = transition(
      at('active'),
      { kind: 'status', status: 'error', problem: refused },
      context,
    )
    expect(change).toMatchObject({ state: 'error', reason })
  })

  it("says Sluice's own full or failing disk is Sluice's, not the database unreachable", () => {
    const full = describeProblem({
      code: 'ENOSPC',
      message: 'ENOSPC: no space left on device, write',
    })
    expect(full).toMatch(/^Sluice's disk for this source's shapes is full/)
    expect(describeProblem({ code: 'EDQUOT', message: 'quota' })).toBe(full)
    expect(
      describeProblem({ code: 'EIO', message: 'EIO: i/o error, write' }),
    ).toMatch(/^Sluice could not write this source's shapes to its disk/)
  })

  it("repeats Postgres' own words for SQLSTATE errors", () => {
    expect(
      describeProblem({
        code: '42710',
        message: 'Replication slot "s" exists',
      }),
    ).toBe('Replication slot "s" exists')
  })

  // Postgres never sees the password, but a database or role may be named like it.
  it('withholds whole what Postgres said when it holds the password, masking nothing', () => {
    const password = 'hunter22'
    const said = (code: string, message: string) =>
      describeProblem(problemOf({ code, message }, password), 'app')
    const reasons = [
      said('42501', 'permission denied for database "hunter22"'),
      said(
        '42501',
        'Role "app" may not create publications. Run: GRANT CREATE ON DATABASE "hunter22" TO "app";',
      ),
      said(
        '28000',
        'no pg_hba.conf entry for host "10.0.0.1", user "hunter22"',
      ),
      said('55000', 'replication slot "hunter22" is active'),
      said('57P01', 'terminating connection for "hunter22"'),
      said('42710', 'publication "hunter22" already exists'),
    ]
    expect(reasons).toEqual([
      'Permission denied. Grant the role what replication needs (REPLICATION and CREATE on the database).',
      'Permission denied. Grant the role what replication needs (REPLICATION and CREATE on the database).',
      'The database server refused the connection. Check pg_hba.conf allows this role, including replication connections.',
      'The replication slot can no longer be used.',
      'The database server closed the connection.',
      'The database server reported an error (SQLSTATE 42710).',
    ])
    // Its URL-encoded form counts too; other words pass as Postgres said them.
    expect(
      describeProblem(
        problemOf(
          { code: '42501', message: 'permission denied for database "p%40ss"' },
          'p@ss',
        ),
      ),
    ).toBe(
      'Permission denied. Grant the role what replication needs (REPLICATION and CREATE on the database).',
    )
    expect(said('42710', 'publication "x" already exists')).toBe(
      'publication "x" already exists',
    )
  })
})

describe('replication health warnings', () => {
  const stored: HealthReading = {
    walStatus: 'reserved',
    retainedBytes: 10 * 1024 ** 2,
    lagBytes: 0,
    safeWalBytes: null,
  }

  it('has nothing to say about the first reading of a healthy slot', () => {
    expect(
      healthWarning(
        { walStatus: null, retainedBytes: null, lagBytes: null },
        { walStatus: 'reserved', retainedBytes: 100, lagBytes: 0 },
      ),
    ).toBeNull()
  })

  it('warns when wal_status turns risky, once', () => {
    const extended = {
      walStatus: 'extended',
      retainedBytes: 10 * 1024 ** 2,
      lagBytes: 0,
    }
    expect(healthWarning(stored, extended)).toEqual({
      wal_status: 'extended',
      wal_retained_bytes: 10 * 1024 ** 2,
    })
    expect(
      healthWarning({ ...stored, walStatus: 'extended' }, extended),
    ).toBeNull()
  })

  it('warns when retained WAL crosses the threshold, once', () => {
    const limit = DEFAULT_HEALTH_LIMITS.retainedWarningBytes
    const below = { ...stored, retainedBytes: limit - 1024 }
    expect(
      healthWarning(below, {
        walStatus: 'reserved',
        retainedBytes: limit + 1024,
        lagBytes: 0,
      }),
    ).toEqual({ wal_status: 'reserved', wal_retained_bytes: limit + 1024 })
    expect(
      healthWarning(
        { ...below, retainedBytes: limit + 1024 },
        { walStatus: 'reserved', retainedBytes: limit + 2048, lagBytes: 0 },
      ),
    ).toBeNull()
  })
})
