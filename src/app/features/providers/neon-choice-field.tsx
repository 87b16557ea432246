// A Neon database or role as a select (two choices side by side on one page), once the list has
// items (list-state-view.tsx shows it until then).
import { MenuItem, TextField } from '@mui/material'
import { ListStateView } from './list-state-view.tsx'
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
  return (
    <ListStateView state={props.state} empty={props.empty}>
      {(listed) => {
        const items = props.order(listed)
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
      }}
    </ListStateView>
  )
}
