import { createFileRoute } from '@tanstack/react-router'
import { PreferencesPage } from '../../features/preferences/preferences-page.tsx'

export const Route = createFileRoute('/_dashboard/preferences')({
  component: PreferencesPage,
})
