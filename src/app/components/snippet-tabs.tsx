// Code to copy, one tab per form (curl, a client, a proxy): what is shown may mask a secret,
// what is copied is whole.
import { Box, Stack, Tab, Tabs } from '@mui/material'
import { useState } from 'react'
import { CopyButton } from './copy-button.tsx'

export type Snippet = { id: string; label: string; text: string }

/** `shown[i]` is `whole[i]` as the screen may show it (a secret masked). */
export function SnippetTabs(props: { whole: Snippet[]; shown: Snippet[] }) {
  const { whole, shown } = props
  const [tab, setTab] = useState(0)
  const current = Math.min(tab, whole.length - 1)
  const snippet = whole[current]
  return (
    <>
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
    </>
  )
}
