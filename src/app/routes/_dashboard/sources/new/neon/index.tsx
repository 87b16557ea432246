import { createFileRoute } from '@tanstack/react-router'
import { ProviderPlaceholderPage } from '../../../../../features/sources/provider-placeholder-page.tsx'

export const Route = createFileRoute('/_dashboard/sources/new/neon/')({
  component: () => <ProviderPlaceholderPage provider="Neon" />,
})
