import { createFileRoute } from '@tanstack/react-router'
import { LocalSignInPage } from '../../features/auth/local-sign-in-page.tsx'

export const Route = createFileRoute('/sign-in/local')({
  component: LocalSignInPage,
})
