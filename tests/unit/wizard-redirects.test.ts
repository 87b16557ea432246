import { describe, expect, it } from 'vitest'
import {
  EMPTY_DRAFT,
  type SourceDraft,
} from '../../src/app/features/sources/draft.ts'
import {
  backFromConfiguration,
  sourceConfigurationRedirect,
} from '../../src/app/features/sources/wizard-redirects.ts'

const URL_ = 'postgresql://alice:pw@db.example.com:5432/app'
const draft = (change: Partial<SourceDraft>): SourceDraft => ({
  ...EMPTY_DRAFT,
  ...change,
})
const org = { id: 'org-1', name: 'Acme' }
const project = { id: 'prj-1', name: 'Shop' }
const branch = { id: 'br-1', name: 'main' }
const neonReady = {
  type: 'neon' as const,
  project,
  branch,
  database: 'app',
  role: 'owner',
}

describe('sourceConfigurationRedirect', () => {
  it('sends an empty draft to /sources/new', () => {
    expect(sourceConfigurationRedirect(EMPTY_DRAFT)).toEqual({
      to: '/sources/new',
    })
  })

  it('lets a connection-string draft with its string through', () => {
    expect(
      sourceConfigurationRedirect(
        draft({ type: 'connection_string', connectionString: URL_ }),
      ),
    ).toBeNull()
  })

  it('sends a connection-string draft without its string (a reload) to /sources/new', () => {
    expect(
      sourceConfigurationRedirect(
        draft({ type: 'connection_string', connectionString: null }),
      ),
    ).toEqual({ to: '/sources/new' })
    expect(
      sourceConfigurationRedirect(
        draft({ type: 'connection_string', connectionString: '   ' }),
      ),
    ).toEqual({ to: '/sources/new' })
  })

  it('sends a string without a type to /sources/new', () => {
    expect(
      sourceConfigurationRedirect(draft({ connectionString: URL_ })),
    ).toEqual({ to: '/sources/new' })
  })

  it('sends a first-provider draft without a project to its start', () => {
    expect(
      sourceConfigurationRedirect(
        draft({ type: 'supabase', organization: org, connectionString: URL_ }),
      ),
    ).toEqual({ to: '/sources/new/supabase' })
  })

  it('lets a complete first-provider draft through', () => {
    expect(
      sourceConfigurationRedirect(
        draft({
          type: 'supabase',
          organization: org,
          project,
          connectionString: URL_,
        }),
      ),
    ).toBeNull()
  })

  it('sends a second-provider draft missing a role to its start', () => {
    expect(
      sourceConfigurationRedirect(
        draft({ ...neonReady, role: null, connectionString: URL_ }),
      ),
    ).toEqual({ to: '/sources/new/neon' })
  })

  it('sends a second-provider draft without its string to its databases page', () => {
    expect(sourceConfigurationRedirect(draft(neonReady))).toEqual({
      to: '/sources/new/neon/databases',
      search: { projectId: 'prj-1', branchId: 'br-1' },
    })
  })

  it('lets a complete second-provider draft through', () => {
    expect(
      sourceConfigurationRedirect(
        draft({ ...neonReady, connectionString: URL_ }),
      ),
    ).toBeNull()
  })
})

describe('backFromConfiguration', () => {
  it('goes to /sources/new for a connection string', () => {
    expect(backFromConfiguration(draft({ type: 'connection_string' }))).toEqual(
      { to: '/sources/new' },
    )
  })

  it("goes to the first provider's start", () => {
    expect(
      backFromConfiguration(
        draft({ type: 'supabase', organization: org, project }),
      ),
    ).toEqual({ to: '/sources/new/supabase' })
  })

  it("goes to the second provider's databases page with its project and branch", () => {
    expect(backFromConfiguration(draft(neonReady))).toEqual({
      to: '/sources/new/neon/databases',
      search: { projectId: 'prj-1', branchId: 'br-1' },
    })
  })

  it('goes to /sources/new without a type', () => {
    expect(backFromConfiguration(EMPTY_DRAFT)).toEqual({ to: '/sources/new' })
  })
})
