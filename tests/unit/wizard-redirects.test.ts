import { describe, expect, it } from 'vitest'
import {
  EMPTY_DRAFT,
  type SourceDraft,
} from '../../src/app/features/sources/draft.ts'
import {
  backFromConfiguration,
  neonBranchesRedirect,
  neonDatabasesRedirect,
  sourceConfigurationRedirect,
  supabaseProjectRedirect,
  wizardSteps,
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

describe('supabaseProjectRedirect', () => {
  it('lets the page show for the organization picked on the start page', () => {
    expect(
      supabaseProjectRedirect(
        draft({ type: 'supabase', organization: org }),
        'org-1',
      ),
    ).toBeNull()
  })

  it('sends a missing, other or other-type organization to the start', () => {
    const start = { to: '/sources/new/supabase' }
    expect(supabaseProjectRedirect(EMPTY_DRAFT, 'org-1')).toEqual(start)
    expect(
      supabaseProjectRedirect(
        draft({ type: 'supabase', organization: org }),
        'org-2',
      ),
    ).toEqual(start)
    expect(
      supabaseProjectRedirect(
        draft({ type: 'neon', organization: org }),
        'org-1',
      ),
    ).toEqual(start)
  })
})

describe('neonBranchesRedirect', () => {
  it('lets the page show for the project picked on the start page', () => {
    expect(
      neonBranchesRedirect(draft({ type: 'neon', project }), 'prj-1'),
    ).toBeNull()
  })

  it('sends an empty, other or unpicked project to the start', () => {
    const start = { to: '/sources/new/neon' }
    expect(neonBranchesRedirect(draft({ type: 'neon', project }), '')).toEqual(
      start,
    )
    expect(
      neonBranchesRedirect(draft({ type: 'neon', project }), 'prj-2'),
    ).toEqual(start)
    expect(neonBranchesRedirect(EMPTY_DRAFT, 'prj-1')).toEqual(start)
    expect(
      neonBranchesRedirect(draft({ type: 'supabase', project }), 'prj-1'),
    ).toEqual(start)
  })
})

describe('neonDatabasesRedirect', () => {
  const picked = draft({ type: 'neon', project, branch })

  it('lets the page show for the picked project and branch', () => {
    expect(neonDatabasesRedirect(picked, 'prj-1', 'br-1')).toBeNull()
  })

  it('sends a missing project to the start', () => {
    expect(neonDatabasesRedirect(EMPTY_DRAFT, 'prj-1', 'br-1')).toEqual({
      to: '/sources/new/neon',
    })
    expect(neonDatabasesRedirect(picked, '', 'br-1')).toEqual({
      to: '/sources/new/neon',
    })
  })

  it("sends a missing or other branch to the project's branches", () => {
    const branches = {
      to: '/sources/new/neon/branches',
      search: { projectId: 'prj-1' },
    }
    expect(neonDatabasesRedirect(picked, 'prj-1', '')).toEqual(branches)
    expect(neonDatabasesRedirect(picked, 'prj-1', 'br-2')).toEqual(branches)
    expect(
      neonDatabasesRedirect(draft({ type: 'neon', project }), 'prj-1', 'br-1'),
    ).toEqual(branches)
  })
})

describe('wizardSteps (the breadcrumbs after New Source)', () => {
  it('follows the first provider: Supabase > Project > Source Configuration', () => {
    expect(wizardSteps('supabase', 'start')).toEqual(['Supabase'])
    expect(wizardSteps('supabase', 'project')).toEqual(['Supabase', 'Project'])
    expect(wizardSteps('supabase', 'configuration')).toEqual([
      'Supabase',
      'Project',
      'Source Configuration',
    ])
  })

  it('follows the second provider: Neon > Branch > Database > Source Configuration', () => {
    expect(wizardSteps('neon', 'start')).toEqual(['Neon'])
    expect(wizardSteps('neon', 'branch')).toEqual(['Neon', 'Branch'])
    expect(wizardSteps('neon', 'database')).toEqual([
      'Neon',
      'Branch',
      'Database',
    ])
    expect(wizardSteps('neon', 'configuration')).toEqual([
      'Neon',
      'Branch',
      'Database',
      'Source Configuration',
    ])
  })

  it('keeps a pasted string to Source Configuration alone', () => {
    expect(wizardSteps('connection_string', 'configuration')).toEqual([
      'Source Configuration',
    ])
  })
})
