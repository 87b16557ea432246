import { createFileRoute } from '@tanstack/react-router'
import { ValidateDatabasePage } from '../features/validation/validate-database-page.tsx'

export const Route = createFileRoute('/validate-postgres-for-electric-cloud')({
  component: ValidateDatabasePage,
})
