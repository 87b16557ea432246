// /sources/new/neon/: the second provider's projects, sorted by name (spec §2), once the
// account is connected; Continue to the project's branches.
import { Button } from '@mui/material'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { ButtonLink } from '../../components/links.tsx'
import { sourceDraft } from '../sources/draft.ts'
import { useSourceDraft } from '../sources/use-source-draft.ts'
import { wizardSteps } from '../sources/wizard-redirects.ts'
import { providerLists, type NeonProject } from './provider-api.ts'
import { ProviderGate, useProviderGate } from './provider-gate.tsx'
import { ProviderListView } from './provider-list-view.tsx'
import { ProviderPage, WizardActions } from './provider-page.tsx'
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
  const [picked, setPicked] = useState<string | null>(
    draft.type === 'neon' ? (draft.project?.id ?? null) : null,
  )
  const chosen =
    projects.state.kind === 'list'
      ? (projects.state.items.find((p) => p.id === picked) ?? null)
      : null

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
    <ProviderPage
      steps={wizardSteps('neon', 'start')}
      title="Connect with Neon"
    >
      <ProviderGate
        gate={gate}
        lists={[projects.state]}
        onConnected={projects.reload}
      >
        <ProviderListView
          state={projects.state}
          order={byName}
          label="Project"
          empty="No projects found for the connected accounts."
          idOf={(p) => p.id}
          nameOf={(p) => p.name}
          value={picked}
          onChange={(p) => setPicked(p.id)}
        />
      </ProviderGate>
      <WizardActions>
        <ButtonLink to="/sources/new" search={{ team_id }} variant="outlined">
          Back
        </ButtonLink>
        <Button
          variant="contained"
          disabled={!chosen}
          onClick={() => chosen && onContinue(chosen)}
        >
          Continue
        </Button>
      </WizardActions>
    </ProviderPage>
  )
}
