// "Use this shape": beside the grid, the code that syncs the same shape into an app. The
// source's secret is masked on screen and copied whole.
import { Paper, Typography } from '@mui/material'
import { maskSecret } from '../../../shared/masking.ts'
import { SnippetTabs } from '../../components/snippet-tabs.tsx'
import { shapeSnippets, type SnippetShape } from './snippets.ts'

export function UseThisShape({ shape }: { shape: SnippetShape }) {
  const secret = shape.params.source_secret
  const shown = shapeSnippets(
    secret === undefined
      ? shape
      : {
          ...shape,
          params: { ...shape.params, source_secret: maskSecret(secret) },
        },
  )
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-label="Use this shape"
      sx={{ p: 2, minWidth: 0 }}
    >
      <Typography variant="h6" component="h2">
        Use this shape
      </Typography>
      <SnippetTabs whole={shapeSnippets(shape)} shown={shown} />
    </Paper>
  )
}
