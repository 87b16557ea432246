// /sources/new/supabase/: the first provider's organizations, sorted by name, once
// the account is connected; Continue to the organization's projects.
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { ButtonLink } from '../../components/links.tsx'
import { sourceDraft } from '../sources/draft.ts'
import { useSourceDraft } from '../sources/use-source-draft.ts'
import { wizardSteps } from '../sources/wizard-redirects.ts'
import { providerLists, type Organization } from './provider-api.ts'
import { useProviderGate } from './provider-gate.tsx'
import { ProviderPickPage } from './provider-pick-page.tsx'
import { byName } from './sorting.ts'
import { useProviderList } from './use-provider-list.ts'

const wizard = getRouteApi('/_dashboard/sources/new')

export function SupabaseOrganizationsPage() {
  const { team_id } = wizard.useSearch()
  const navigate = useNavigate()
  const draft = useSourceDraft()
  const gate = useProviderGate('supabase')
  const orgs = useProviderList(
    gate.mayRead ? providerLists.organizations() : null,
  )

  const onContinue = (org: Organization) => {
    const before = sourceDraft.get()
    const sameOrg =
      before.type === 'supabase' && before.organization?.id === org.id
    sourceDraft.update({
      type: 'supabase',
      teamId: team_id ?? before.teamId,
      organization: { id: org.id, name: org.name },
      // Another organization's project, or the other provider's picks, no longer apply.
      project: sameOrg ? before.project : null,
      branch: null,
      database: null,
      role: null,
      connectionString: null,
    })
    void navigate({
      to: '/sources/new/supabase/$orgId',
      params: { orgId: org.id },
      search: { team_id },
    })
  }

  return (
    <ProviderPickPage
      steps={wizardSteps('supabase', 'start')}
      title="Connect with Supabase"
      gate={gate}
      list={orgs}
      order={byName}
      label="Organization"
      empty="No organizations found for the connected accounts."
      initial={
        draft.type === 'supabase' ? (draft.organization?.id ?? null) : null
      }
      back={
        <ButtonLink to="/sources/new" search={{ team_id }} variant="outlined">
          Back
        </ButtonLink>
      }
      onContinue={onContinue}
    />
  )
}
