import { createFileRoute } from '@tanstack/react-router'
import { CliLoginPage } from '../../../features/cli-login/cli-login-page.tsx'

export const Route = createFileRoute('/_dashboard/cli-login/$loginId')({
  component: CliLoginPage,
})
