// The results panel's pure logic: check-row statuses, descriptions, the verdict,
// the numbered fix steps and the diagnostics warnings.
import { describe, expect, it } from 'vitest'
import {
  checkRows,
  checkStatus,
  panelVerdict,
} from '../../src/app/features/validation/check-rows.ts'
import { diagnosticWarnings } from '../../src/app/features/validation/diagnostic-warnings.ts'
import {
  fixSteps,
  namesFor,
  namesFromUrl,
  quoteIdentifier,
} from '../../src/app/features/validation/fix-steps.ts'
import type {
  DatabaseValidation,
  ValidationDiagnostics,
} from '../../src/shared/validation.ts'

const ready: DatabaseValidation = {
  has_replication_permissions: true,
  has_logical_wal: true,
  can_connect: true,
  can_connect_without_replication: true,
  has_create_privilege: true,
}
const nothing: DatabaseValidation = {
  has_replication_permissions: false,
  has_logical_wal: false,
  can_connect: false,
  can_connect_without_replication: false,
  has_create_privilege: false,
  connection_error: 'password authentication failed for user "app"',
}
const replicationRefused: DatabaseValidation = {
  ...nothing,
  can_connect_without_replication: true,
  has_create_privilege: true,
  has_logical_wal: true,
  connection_error: 'no pg_hba.conf entry for replication connection',
}
const diagnostics: ValidationDiagnostics = {
  free_replication_slots: 5,
  max_wal_senders: 10,
  is_read_replica: false,
  pooler_host: false,
  suggested_direct_host: null,
  server_version_num: 170000,
  user: null,
  database: null,
}

const statuses = (v: DatabaseValidation) =>
  Object.fromEntries(checkRows(v).map((r) => [r.label, r.status]))
const descriptions = (v: DatabaseValidation) =>
  Object.fromEntries(checkRows(v).map((r) => [r.label, r.description]))

describe('checkStatus', () => {
  it('is success when the check passed, whatever connected', () => {
    expect(checkStatus(true, true)).toBe('success')
    expect(checkStatus(true, false)).toBe('success')
  })
  it('is error when it failed on a working connection', () => {
    expect(checkStatus(false, true)).toBe('error')
  })
  it('is unknown when it failed because nothing connected', () => {
    expect(checkStatus(false, false)).toBe('unknown')
  })
})

describe('checkRows', () => {
  it('all success with the fixed texts when ready', () => {
    expect(statuses(ready)).toEqual({
      Connection: 'success',
      'Replication Permissions': 'success',
      'CREATE Privilege': 'success',
      'WAL Level': 'success',
    })
    expect(descriptions(ready)).toEqual({
      Connection: 'Successfully connected to database',
      'Replication Permissions': 'User has replication permissions',
      'CREATE Privilege': 'User has CREATE privilege',
      'WAL Level': 'WAL level is set to logical',
    })
  })

  it('connection error and unknown checks when nothing connected', () => {
    expect(statuses(nothing)).toEqual({
      Connection: 'error',
      'Replication Permissions': 'unknown',
      'CREATE Privilege': 'unknown',
      'WAL Level': 'unknown',
    })
    expect(descriptions(nothing)).toEqual({
      Connection: 'password authentication failed for user "app"',
      'Replication Permissions': 'Unknown - cannot check until connected',
      'CREATE Privilege': 'Unknown - cannot check until connected',
      'WAL Level': 'Unknown - cannot check until connected',
    })
  })

  it('a connection error without a message still says what happened', () => {
    const { connection_error: _, ...silent } = nothing
    expect(descriptions(silent).Connection).toBe(
      'Could not connect to database',
    )
  })

  it('missing checks are errors with the fixed texts when connected', () => {
    const v = {
      ...ready,
      has_replication_permissions: false,
      has_create_privilege: false,
      has_logical_wal: false,
    }
    expect(statuses(v)).toEqual({
      Connection: 'success',
      'Replication Permissions': 'error',
      'CREATE Privilege': 'error',
      'WAL Level': 'error',
    })
    expect(descriptions(v)).toEqual({
      Connection: 'Successfully connected to database',
      'Replication Permissions': 'User does not have replication permissions',
      'CREATE Privilege': 'User does not have CREATE privilege',
      'WAL Level': 'WAL level is not set to logical',
    })
  })

  it('replication mode refused: replication and WAL known from the normal connection, CREATE from the connection row', () => {
    const v = { ...replicationRefused, has_create_privilege: false }
    expect(statuses(v)).toEqual({
      Connection: 'error',
      'Replication Permissions': 'error',
      'CREATE Privilege': 'unknown',
      'WAL Level': 'success',
    })
  })
})

describe('panelVerdict', () => {
  it.each([
    ['ready', ready],
    ['unreachable', nothing],
    ['replication-refused', replicationRefused],
    ['needs-fixes', { ...ready, has_logical_wal: false }],
  ] as const)('%s', (verdict, v) => {
    expect(panelVerdict(v)).toBe(verdict)
  })

  it('ready needs every readiness flag, not only a connection', () => {
    expect(panelVerdict({ ...ready, has_create_privilege: false })).toBe(
      'needs-fixes',
    )
  })
})

describe('names for the fix steps', () => {
  it('reads user and database from the typed URL, decoded', () => {
    expect(
      namesFromUrl(
        ' postgresql://my%40user:p%2Fw@db.example.com:5432/shop?sslmode=require ',
      ),
    ).toEqual({
      user: 'my@user',
      database: 'shop',
    })
  })
  it('defaults the database to the user, as libpq does', () => {
    expect(namesFromUrl('postgres://app@host')).toEqual({
      user: 'app',
      database: 'app',
    })
  })
  it('reads nothing from a non-Postgres or unparsable URL', () => {
    expect(namesFromUrl('mysql://u@h/db')).toEqual({})
    expect(namesFromUrl('not a url')).toEqual({})
  })
  it('prefers the server diagnostics, then the URL, then placeholders', () => {
    const url = 'postgresql://typed@h/typeddb'
    expect(
      namesFor(
        {
          ...ready,
          diagnostics: { ...diagnostics, user: 'srv', database: 'srvdb' },
        },
        url,
      ),
    ).toEqual({ user: 'srv', database: 'srvdb' })
    expect(namesFor({ ...ready, diagnostics }, url)).toEqual({
      user: 'typed',
      database: 'typeddb',
    })
    expect(namesFor(ready, '')).toEqual({
      user: '<user>',
      database: '<database>',
    })
  })
  it('quotes identifiers that would not survive bare', () => {
    expect(quoteIdentifier('app_user1')).toBe('app_user1')
    expect(quoteIdentifier('App')).toBe('"App"')
    expect(quoteIdentifier('my-db')).toBe('"my-db"')
    expect(quoteIdentifier('a"b')).toBe('"a""b"')
    expect(quoteIdentifier('<user>')).toBe('<user>')
  })
})

describe('fixSteps', () => {
  const names = { user: 'app', database: 'shop' }
  const missingAll = {
    ...ready,
    has_replication_permissions: false,
    has_create_privilege: false,
    has_logical_wal: false,
  }

  it('numbers all three steps in order', () => {
    expect(fixSteps(missingAll, names).map((s) => [s.number, s.sql])).toEqual([
      [1, 'ALTER USER app WITH REPLICATION;'],
      [2, 'GRANT CREATE ON DATABASE shop TO app;'],
      [3, 'ALTER SYSTEM SET wal_level = logical;'],
    ])
    expect(fixSteps(missingAll, names)[2]!.text).toMatch(
      /wal_level = logical.*restart the server/,
    )
  })

  it('renumbers when the first step is not needed', () => {
    const v = { ...missingAll, has_replication_permissions: true }
    expect(fixSteps(v, names).map((s) => [s.number, s.sql])).toEqual([
      [1, 'GRANT CREATE ON DATABASE shop TO app;'],
      [2, 'ALTER SYSTEM SET wal_level = logical;'],
    ])
  })

  it('lists only the WAL step when only WAL is missing', () => {
    const v = { ...ready, has_logical_wal: false }
    expect(fixSteps(v, names).map((s) => [s.number, s.sql])).toEqual([
      [1, 'ALTER SYSTEM SET wal_level = logical;'],
    ])
  })

  it('quotes real names', () => {
    const v = { ...ready, has_create_privilege: false }
    expect(fixSteps(v, { user: 'Ada', database: 'my-db' })[0]!.sql).toBe(
      'GRANT CREATE ON DATABASE "my-db" TO "Ada";',
    )
  })

  it('lists nothing for unknown checks or a ready database', () => {
    expect(fixSteps(nothing, names)).toEqual([])
    expect(fixSteps(ready, names)).toEqual([])
  })

  it('in replication mode asks for REPLICATION when the role lacks it', () => {
    expect(fixSteps(replicationRefused, names).map((s) => s.sql)).toEqual([
      'ALTER USER app WITH REPLICATION;',
    ])
  })
})

describe('diagnosticWarnings', () => {
  it('none without diagnostics or when all is well', () => {
    expect(diagnosticWarnings(undefined)).toEqual([])
    expect(diagnosticWarnings(diagnostics)).toEqual([])
    expect(
      diagnosticWarnings({
        ...diagnostics,
        free_replication_slots: null,
        max_wal_senders: null,
        is_read_replica: null,
      }),
    ).toEqual([])
  })
  it('warns of no free replication slots', () => {
    expect(
      diagnosticWarnings({ ...diagnostics, free_replication_slots: 0 }),
    ).toEqual([expect.stringMatching(/^No free replication slots/)])
  })
  it('warns of a low max_wal_senders, naming it', () => {
    expect(diagnosticWarnings({ ...diagnostics, max_wal_senders: 1 })).toEqual([
      expect.stringMatching(/^max_wal_senders is 1;/),
    ])
    expect(diagnosticWarnings({ ...diagnostics, max_wal_senders: 2 })).toEqual(
      [],
    )
  })
  it('warns of a read replica', () => {
    expect(
      diagnosticWarnings({ ...diagnostics, is_read_replica: true }),
    ).toEqual([expect.stringMatching(/read replica/)])
  })
  it('warns of a pooler host, with the direct host when known', () => {
    expect(diagnosticWarnings({ ...diagnostics, pooler_host: true })).toEqual([
      expect.stringMatching(/connection pooler.*direct connection/),
    ])
    expect(
      diagnosticWarnings({
        ...diagnostics,
        pooler_host: true,
        suggested_direct_host: 'db.abc.supabase.co',
      }),
    ).toEqual([expect.stringMatching(/Use db\.abc\.supabase\.co instead\.$/)])
  })
})
