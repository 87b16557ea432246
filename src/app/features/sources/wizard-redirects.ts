// Where the wizard sends a user whose draft lacks what a page needs, and where
// the configuration page's Back goes. Pure: the routes call these with the current draft.
import { finalConnectionString, type SourceDraft } from './draft.ts'

/** Each path a wizard redirect or Back can lead to. */
export type WizardTarget =
  | { to: '/sources/new' }
  | { to: '/sources/new/supabase' }
  | { to: '/sources/new/neon' }
  | { to: '/sources/new/neon/branches'; search: { projectId: string } }
  | {
      to: '/sources/new/neon/databases'
      search: { projectId: string; branchId: string }
    }

const START: WizardTarget = { to: '/sources/new' }

/** Where each provider's flow starts. */
function providerStart(draft: SourceDraft): WizardTarget {
  if (draft.type === 'supabase') return { to: '/sources/new/supabase' }
  if (draft.type === 'neon') return { to: '/sources/new/neon' }
  return START
}

/** The choices each type needs made before its source can be configured. */
function choicesMade(draft: SourceDraft): boolean {
  switch (draft.type) {
    case 'connection_string':
      return true
    case 'supabase':
      return draft.organization !== null && draft.project !== null
    case 'neon':
      return (
        draft.project !== null &&
        draft.branch !== null &&
        draft.database !== null &&
        draft.role !== null
      )
    default:
      return false
  }
}

/** Null when the configuration page can show; otherwise where to go instead. */
export function sourceConfigurationRedirect(
  draft: SourceDraft,
): WizardTarget | null {
  if (!draft.type) return START
  if (!choicesMade(draft)) return providerStart(draft)
  // Pasted or built last, and kept in memory only: after a reload the step that made it is
  // where the user gets it back.
  if (!finalConnectionString(draft)) return backFromConfiguration(draft)
  return null
}

/** Back from configuration: to the step that produced the connection string. */
export function backFromConfiguration(draft: SourceDraft): WizardTarget {
  if (draft.type === 'neon' && draft.project && draft.branch)
    return {
      to: '/sources/new/neon/databases',
      search: { projectId: draft.project.id, branchId: draft.branch.id },
    }
  return providerStart(draft)
}

/** The first provider's project page needs its organization picked on the start page. */
export function supabaseProjectRedirect(
  draft: SourceDraft,
  orgId: string,
): WizardTarget | null {
  if (draft.type === 'supabase' && draft.organization?.id === orgId) return null
  return { to: '/sources/new/supabase' }
}

/** The branches page needs the project picked on the second provider's start. */
export function neonBranchesRedirect(
  draft: SourceDraft,
  projectId: string,
): WizardTarget | null {
  if (projectId && draft.type === 'neon' && draft.project?.id === projectId)
    return null
  return { to: '/sources/new/neon' }
}

/** The databases page needs the project, then the branch, each on its own page. */
export function neonDatabasesRedirect(
  draft: SourceDraft,
  projectId: string,
  branchId: string,
): WizardTarget | null {
  const toProject = neonBranchesRedirect(draft, projectId)
  if (toProject) return toProject
  if (branchId && draft.branch?.id === branchId) return null
  return { to: '/sources/new/neon/branches', search: { projectId } }
}

/** The breadcrumbs after 'New Source': provider > Project or Branch > Database. */
export function wizardSteps(
  type: SourceDraft['type'],
  page: 'start' | 'project' | 'branch' | 'database' | 'configuration',
): string[] {
  const provider =
    type === 'supabase' ? ['Supabase'] : type === 'neon' ? ['Neon'] : []
  const trail =
    type === 'supabase'
      ? [...provider, 'Project']
      : type === 'neon'
        ? [...provider, 'Branch', 'Database']
        : []
  const upTo: Record<typeof page, number> = {
    start: 1,
    project: 2,
    branch: 2,
    database: 3,
    configuration: trail.length,
  }
  const steps = trail.slice(0, upTo[page])
  return page === 'configuration' ? [...steps, 'Source Configuration'] : steps
}
