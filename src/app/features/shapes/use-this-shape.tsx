// "Use this shape": beside the grid, the code that syncs the same shape into an app. The
// source's secret is masked on screen and copied whole.
import { Box, Paper, Stack, Tab, Tabs, Typography } from '@mui/material'
import { useState } from 'react'
import { maskSecret } from '../../../shared/masking.ts'
import { CopyButton } from '../../components/copy-button.tsx'
import { shapeSnippets, type SnippetShape } from './snippets.ts'

export function UseThisShape({ shape }: { shape: SnippetShape }) {
  const [tab, setTab] = useState(0)
  const whole = shapeSnippets(shape)
  const secret = shape.params.source_secret
  const shown = shapeSnippets(
    secret === undefined
      ? shape
      : {
          ...shape,
          params: { ...shape.params, source_secret: maskSecret(secret) },
        },
  )
  const current = Math.min(tab, whole.length - 1)
  const snippet = whole[current]
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
      <Tabs
        value={current}
        onChange={(_event, next: number) => setTab(next)}
        variant="scrollable"
        sx={{ mb: 1 }}
      >
        {whole.map((each) => (
          <Tab key={each.id} label={each.label} />
        ))}
      </Tabs>
      {snippet && (
        <Stack
          role="tabpanel"
          direction="row"
          spacing={1}
          sx={{ alignItems: 'flex-start' }}
        >
          <Box
            component="pre"
            aria-label={`${snippet.label} snippet`}
            sx={{
              m: 0,
              flex: 1,
              minWidth: 0,
              overflowX: 'auto',
              fontSize: '0.8rem',
              whiteSpace: 'pre',
            }}
          >
            {shown[current]?.text}
          </Box>
          <CopyButton value={snippet.text} label={`Copy ${snippet.label}`} />
        </Stack>
      )}
    </Paper>
  )
}
