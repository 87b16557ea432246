// /sources/new/neon/: the second provider's projects, sorted by name, once the
// account is connected; Continue to the project's branches.
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { ButtonLink } from '../../components/links.tsx'
import { sourceDraft } from '../sources/draft.ts'
import { useSourceDraft } from '../sources/use-source-draft.ts'
import { wizardSteps } from '../sources/wizard-redirects.ts'
import { providerLists, type NeonProject } from './provider-api.ts'
import { useProviderGate } from './provider-gate.tsx'
import { ProviderPickPage } from './provider-pick-page.tsx'
import { byName } from './sorting.ts'
import { useProviderList } from './use-provider-list.ts'

const wizard = getRouteApi('/_dashboard/sources/new')

export function NeonProjectsPage() {
  const { team_id } = wizard.useSearch()
  const navigate = useNavigate()
  const draft = useSourceDraft()
  const gate = useProviderGate('neon')
  const projects = useProviderList(
    gate.mayRead ? providerLists.neonProjects() : null,
  )

  const onContinue = (project: NeonProject) => {
    const before = sourceDraft.get()
    const same = before.type === 'neon' && before.project?.id === project.id
    sourceDraft.update({
      type: 'neon',
      teamId: team_id ?? before.teamId,
      organization: null,
      project: { id: project.id, name: project.name },
      // Another project's branch and database no longer apply.
      branch: same ? before.branch : null,
      database: same ? before.database : null,
      role: same ? before.role : null,
      connectionString: null,
    })
    void navigate({
      to: '/sources/new/neon/branches',
      search: { team_id, projectId: project.id },
    })
  }

  return (
    <ProviderPickPage
      steps={wizardSteps('neon', 'start')}
      title="Connect with Neon"
      gate={gate}
      list={projects}
      order={byName}
      label="Project"
      empty="No projects found for the connected accounts."
      initial={draft.type === 'neon' ? (draft.project?.id ?? null) : null}
      back={
        <ButtonLink to="/sources/new" search={{ team_id }} variant="outlined">
          Back
        </ButtonLink>
      }
      onContinue={onContinue}
    />
  )
}
