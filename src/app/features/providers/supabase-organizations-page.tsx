// /sources/new/supabase/: the first provider's organizations, sorted by name (spec §2), once
// the account is connected; Continue to the organization's projects.
import { Button } from '@mui/material'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { ButtonLink } from '../../components/links.tsx'
import { sourceDraft } from '../sources/draft.ts'
import { useSourceDraft } from '../sources/use-source-draft.ts'
import { wizardSteps } from '../sources/wizard-redirects.ts'
import { providerLists, type Organization } from './provider-api.ts'
import { ProviderGate, useProviderGate } from './provider-gate.tsx'
import { ProviderListView } from './provider-list-view.tsx'
import { ProviderPage, WizardActions } from './provider-page.tsx'
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
  const [picked, setPicked] = useState<string | null>(
    draft.type === 'supabase' ? (draft.organization?.id ?? null) : null,
  )
  const chosen =
    orgs.state.kind === 'list'
      ? (orgs.state.items.find((org) => org.id === picked) ?? null)
      : null

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
    <ProviderPage
      steps={wizardSteps('supabase', 'start')}
      title="Connect with Supabase"
    >
      <ProviderGate gate={gate} lists={[orgs.state]} onConnected={orgs.reload}>
        <ProviderListView
          state={orgs.state}
          order={byName}
          label="Organization"
          empty="No organizations found for the connected accounts."
          idOf={(org) => org.id}
          nameOf={(org) => org.name}
          value={picked}
          onChange={(org) => setPicked(org.id)}
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
