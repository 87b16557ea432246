// The wizard's trail: 'New Source > ... > Source Configuration'.
import { Breadcrumbs, Typography } from '@mui/material'
import { TextLink } from '../../components/links.tsx'

/** `steps` after 'New Source'; the last one is the current page. */
export function WizardBreadcrumbs({ steps }: { steps: string[] }) {
  const current = steps.at(-1) ?? 'New Source'
  return (
    <Breadcrumbs separator=">" aria-label="Breadcrumbs" sx={{ mb: 2 }}>
      {steps.length > 0 ? (
        <TextLink to="/sources/new" underline="hover" color="inherit">
          New Source
        </TextLink>
      ) : null}
      {steps.slice(0, -1).map((step) => (
        <Typography key={step} color="text.secondary">
          {step}
        </Typography>
      ))}
      <Typography color="text.primary" aria-current="page">
        {current}
      </Typography>
    </Breadcrumbs>
  )
}
