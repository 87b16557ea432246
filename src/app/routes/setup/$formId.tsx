import { createFileRoute } from '@tanstack/react-router'
import { SetupPage } from '../../features/setup/setup-page.tsx'

export const Route = createFileRoute('/setup/$formId')({
  component: SetupPage,
})
