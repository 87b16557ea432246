// /sources/new/neon/branches: the project's branches, the primary first, then by name; Continue to
// the branch's databases and roles.
import { Chip } from '@mui/material'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { ButtonLink } from '../../components/links.tsx'
import { sourceDraft } from '../sources/draft.ts'
import { useSourceDraft } from '../sources/use-source-draft.ts'
import { wizardSteps } from '../sources/wizard-redirects.ts'
import { providerLists, type Branch } from './provider-api.ts'
import { useProviderGate } from './provider-gate.tsx'
import { ProviderPickPage } from './provider-pick-page.tsx'
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
    <ProviderPickPage
      steps={wizardSteps('neon', 'branch')}
      title={`Branches of ${draft.project?.name ?? 'the project'}`}
      gate={gate}
      list={branches}
      order={primaryFirst}
      label="Branch"
      empty="No branches found for this project."
      detailOf={(b) =>
        b.primary ? <Chip size="small" label="Primary" /> : null
      }
      initial={draft.branch?.id ?? null}
      back={
        <ButtonLink
          to="/sources/new/neon"
          search={{ team_id }}
          variant="outlined"
        >
          Back
        </ButtonLink>
      }
      onContinue={onContinue}
    />
  )
}
