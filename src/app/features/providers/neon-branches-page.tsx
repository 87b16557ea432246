// /sources/new/neon/branches: the project's branches, the primary first, then by name (spec
// §2); Continue to the branch's databases and roles.
import { Button, Chip } from '@mui/material'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { ButtonLink } from '../../components/links.tsx'
import { sourceDraft } from '../sources/draft.ts'
import { useSourceDraft } from '../sources/use-source-draft.ts'
import { wizardSteps } from '../sources/wizard-redirects.ts'
import { providerLists, type Branch } from './provider-api.ts'
import { ProviderGate, useProviderGate } from './provider-gate.tsx'
import { ProviderListView } from './provider-list-view.tsx'
import { ProviderPage, WizardActions } from './provider-page.tsx'
import { primaryFirst } from './sorting.ts'
import { useProviderList } from './use-provider-list.ts'

const route = getRouteApi('/_dashboard/sources/new/neon/branches')
const wizard = getRouteApi('/_dashboard/sources/new')

export function NeonBranchesPage() {
  const { projectId } = route.useSearch()
  const { team_id } = wizard.useSearch()
  const navigate = useNavigate()
  const draft = useSourceDraft()
  const gate = useProviderGate('neon')
  const branches = useProviderList(
    gate.mayRead ? providerLists.branches(projectId) : null,
  )
  const [picked, setPicked] = useState<string | null>(draft.branch?.id ?? null)
  const chosen =
    branches.state.kind === 'list'
      ? (branches.state.items.find((b) => b.id === picked) ?? null)
      : null

  const onContinue = (branch: Branch) => {
    const before = sourceDraft.get()
    const same = before.branch?.id === branch.id
    sourceDraft.update({
      branch: { id: branch.id, name: branch.name },
      database: same ? before.database : null,
      role: same ? before.role : null,
      connectionString: null,
    })
    void navigate({
      to: '/sources/new/neon/databases',
      search: { team_id, projectId, branchId: branch.id },
    })
  }

  return (
    <ProviderPage
      steps={wizardSteps('neon', 'branch')}
      title={`Branches of ${draft.project?.name ?? 'the project'}`}
    >
      <ProviderGate
        gate={gate}
        lists={[branches.state]}
        onConnected={branches.reload}
      >
        <ProviderListView
          state={branches.state}
          order={primaryFirst}
          label="Branch"
          empty="No branches found for this project."
          idOf={(b) => b.id}
          nameOf={(b) => b.name}
          detailOf={(b) =>
            b.primary ? <Chip size="small" label="Primary" /> : null
          }
          value={picked}
          onChange={(b) => setPicked(b.id)}
        />
      </ProviderGate>
      <WizardActions>
        <ButtonLink
          to="/sources/new/neon"
          search={{ team_id }}
          variant="outlined"
        >
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
