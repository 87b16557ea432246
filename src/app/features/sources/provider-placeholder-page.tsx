// The provider starts the new-source page links to. Their flows ship in a later release; until
// then the page says so plainly and points back to the way that works today.
import { Alert, Stack } from '@mui/material'
import { ButtonLink } from '../../components/links.tsx'
import { PageTitle } from '../../components/page-title.tsx'
import { WizardBreadcrumbs } from './wizard-breadcrumbs.tsx'

export function ProviderPlaceholderPage({ provider }: { provider: string }) {
  return (
    <Stack spacing={3} sx={{ maxWidth: 720 }}>
      <div>
        <WizardBreadcrumbs steps={[provider]} />
        <PageTitle>{`Connect with ${provider}`}</PageTitle>
      </div>
      <Alert severity="info" role="note">
        Connecting a {provider} database through your {provider} account is
        coming soon. Until then, paste its connection string: {provider} shows
        it in your project&apos;s connection settings.
      </Alert>
      <div>
        <ButtonLink to="/sources/new" variant="contained">
          Paste a connection string
        </ButtonLink>
      </div>
    </Stack>
  )
}
