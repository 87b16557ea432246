// The where-clause field and its Create shape button: enabled only for an edited
// clause or after a warning; Enter submits; Tab in an empty field fills in the last clause.
// The draft starts again from the asked-for clause whenever another shape is asked for.
import { Button, Stack, TextField } from '@mui/material'
import { useState } from 'react'
import { canSubmit } from './shape-rules.ts'

export function WhereField(props: {
  /** Changes with the shape asked for (team, source, table and clause). */
  shapeId: string
  /** The where clause of the shape asked for. */
  asked: string
  warned: boolean
  /** The last where clause submitted, for Tab to fill in. */
  lastWhere: string
  onSubmit: (where: string) => void
}) {
  const [draft, setDraft] = useState(props.asked)
  // Another shape asked for (a table chosen, a clause submitted, back or forward) starts the
  // draft again from its clause. Adjusted while rendering rather than by remounting, so the
  // field keeps the focus after Enter.
  const [draftFor, setDraftFor] = useState(props.shapeId)
  if (draftFor !== props.shapeId) {
    setDraftFor(props.shapeId)
    setDraft(props.asked)
  }
  const enabled = canSubmit(draft, props.asked, props.warned)
  const submit = () => {
    if (enabled) props.onSubmit(draft.trim())
  }
  return (
    <Stack
      component="form"
      direction="row"
      spacing={1}
      sx={{ alignItems: 'flex-start' }}
      onSubmit={(event) => {
        event.preventDefault()
        submit()
      }}
    >
      <TextField
        size="small"
        label="Where clause"
        placeholder="e.g. id > 100"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          // Only an empty field: with text in it, Tab moves on as it always does.
          if (event.key !== 'Tab' || event.shiftKey || draft !== '') return
          if (!props.lastWhere) return
          event.preventDefault()
          setDraft(props.lastWhere)
        }}
        slotProps={{ htmlInput: { spellCheck: false, autoComplete: 'off' } }}
        sx={{ flex: 1, '& input': { fontFamily: 'monospace' } }}
      />
      <Button type="submit" variant="contained" disabled={!enabled}>
        Create shape
      </Button>
    </Stack>
  )
}
