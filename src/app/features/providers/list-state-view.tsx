// What every provider list shows before it has items to choose from: loading, the list's error in
// red, nothing while the page shows the connect form instead (not connected), or its empty text.
// The radio list and the Neon selects differ only in how they show the items.
import { Typography } from '@mui/material'
import type { ReactNode } from 'react'
import type { ListState } from './refetch-policy.ts'

export function ListStateView<T>(props: {
  state: ListState<T>
  empty: string
  children: (items: T[]) => ReactNode
}) {
  const { state } = props
  if (state.kind === 'loading')
    return <Typography color="text.secondary">Loading...</Typography>
  if (state.kind === 'error')
    return (
      <Typography color="error" role="alert">
        {state.text}
      </Typography>
    )
  if (state.kind === 'not-connected') return null
  if (state.items.length === 0)
    return <Typography color="text.secondary">{props.empty}</Typography>
  return props.children(state.items)
}
