import { describe, expect, it } from 'vitest'
import type { DatabaseValidation } from '../../src/shared/validation.ts'
import { connectionStatus } from '../../src/app/features/preferences/connection-status.ts'
import {
  connectHref,
  currentReturnTo,
} from '../../src/app/features/providers/provider-return.ts'
import { onlyWalLevelFails } from '../../src/app/features/providers/wal-only.ts'
import { TOKEN_HELP } from '../../src/app/features/providers/token-help.ts'

const ready: DatabaseValidation = {
  has_replication_permissions: true,
  has_logical_wal: true,
  can_connect: true,
  can_connect_without_replication: true,
  has_create_privilege: true,
}

describe('onlyWalLevelFails', () => {
  it('offers enabling logical replication when the WAL level is the only failure', () => {
    expect(onlyWalLevelFails({ ...ready, has_logical_wal: false })).toBe(true)
  })

  it('does not offer it for a ready database or any other failure', () => {
    expect(onlyWalLevelFails(ready)).toBe(false)
    for (const other of [
      'has_replication_permissions',
      'has_create_privilege',
      'can_connect',
    ] as const)
      expect(
        onlyWalLevelFails({ ...ready, has_logical_wal: false, [other]: false }),
      ).toBe(false)
  })
})

describe('the OAuth round trip', () => {
  it('starts at the server with where to come back, encoded', () => {
    expect(
      connectHref('neon', '/sources/new/neon/branches?projectId=a&team_id=t'),
    ).toBe(
      '/api/public/auth/neon/login?return_to=%2Fsources%2Fnew%2Fneon%2Fbranches%3FprojectId%3Da%26team_id%3Dt',
    )
    expect(connectHref('supabase', '/sources/new/supabase')).toBe(
      '/api/public/auth/supabase/login?return_to=%2Fsources%2Fnew%2Fsupabase',
    )
  })

  it("comes back without an earlier attempt's provider_error", () => {
    expect(
      currentReturnTo({
        pathname: '/sources/new/supabase',
        search: '?provider_error=denied&team_id=t',
      }),
    ).toBe('/sources/new/supabase?team_id=t')
    expect(
      currentReturnTo({
        pathname: '/preferences',
        search: '?provider_error=denied',
      }),
    ).toBe('/preferences')
  })

  it('says where each personal token is created', () => {
    expect(TOKEN_HELP.supabase.href).toBe(
      'https://supabase.com/dashboard/account/tokens',
    )
    expect(TOKEN_HELP.neon.href).toBe(
      'https://console.neon.tech/app/settings/api-keys',
    )
  })
})

describe('connectionStatus', () => {
  it('names how and since when, or not connected', () => {
    expect(connectionStatus(null)).toBe('Not connected')
    expect(
      connectionStatus({ method: 'oauth', created_at: '2026-03-04T10:00:00Z' }),
    ).toBe('Connected with OAuth since March 4, 2026')
    expect(
      connectionStatus({ method: 'token', created_at: '2026-03-04T10:00:00Z' }),
    ).toBe('Connected with a personal token since March 4, 2026')
  })
})
