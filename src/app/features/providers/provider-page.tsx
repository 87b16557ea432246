// The frame every provider page shares: breadcrumbs, title, a failed connection's message,
// and Back / the page's next action in one row.
import { Stack } from '@mui/material'
import type { ReactNode } from 'react'
import { PageTitle } from '../../components/page-title.tsx'
import { WizardBreadcrumbs } from '../sources/wizard-breadcrumbs.tsx'
import { ProviderErrorAlert } from './provider-error-alert.tsx'

export function ProviderPage(props: {
  steps: string[]
  title: string
  children: ReactNode
}) {
  return (
    <Stack spacing={3} sx={{ maxWidth: 720 }}>
      <div>
        <WizardBreadcrumbs steps={props.steps} />
        <PageTitle>{props.title}</PageTitle>
      </div>
      <ProviderErrorAlert />
      {props.children}
    </Stack>
  )
}

/** Back and the forward action, wrapping onto two lines on a narrow screen. */
export function WizardActions({ children }: { children: ReactNode }) {
  return (
    <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {children}
    </Stack>
  )
}
