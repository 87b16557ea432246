import { Alert } from '@mui/material'
import { PageTitle } from './page-title.tsx'

/** A route the sidebar already links to whose page has not shipped yet. */
export function NotYetAvailable({ title }: { title: string }) {
  return (
    <>
      <PageTitle>{title}</PageTitle>
      <Alert severity="info">This part of Sluice is not available yet.</Alert>
    </>
  )
}
