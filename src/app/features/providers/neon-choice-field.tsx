// A Neon database or role as a select (two choices side by side on one page), with the list's
// loading, error (§8, in red) and empty states.
import { MenuItem, TextField, Typography } from '@mui/material'
import type { ListState } from './refetch-policy.ts'

export function NeonChoiceField<T extends { name: string }>(props: {
  label: string
  state: ListState<T>
  order: (items: T[]) => T[]
  empty: string
  value: string | null
  disabled?: boolean
  onChange: (item: T) => void
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
  const items = props.order(state.items)
  return (
    <TextField
      select
      label={props.label}
      value={props.value ?? ''}
      disabled={props.disabled}
      onChange={(e) => {
        const item = items.find((i) => i.name === e.target.value)
        if (item) props.onChange(item)
      }}
    >
      {items.map((item) => (
        <MenuItem key={item.name} value={item.name}>
          {item.name}
        </MenuItem>
      ))}
    </TextField>
  )
}
