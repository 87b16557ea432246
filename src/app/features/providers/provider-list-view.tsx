// A provider list as a choice of one (spec §2): loading, the §8 error in red, the §8 empty
// text, or radio rows that stay readable on a phone.
import {
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  Typography,
} from '@mui/material'
import { useId, type ReactNode } from 'react'
import type { ListState } from './refetch-policy.ts'

export function ProviderListView<T>(props: {
  state: ListState<T>
  label: string
  empty: string
  idOf: (item: T) => string
  nameOf: (item: T) => string
  detailOf?: (item: T) => ReactNode
  /** The order spec §2 gives this list (sorting.ts). */
  order: (items: T[]) => T[]
  value: string | null
  onChange: (item: T) => void
  disabled?: boolean
}) {
  const { state } = props
  const labelId = useId()
  if (state.kind === 'loading')
    return <Typography color="text.secondary">Loading...</Typography>
  if (state.kind === 'error')
    return (
      <Typography color="error" role="alert">
        {state.text}
      </Typography>
    )
  // The page shows the connect form instead (spec §6).
  if (state.kind === 'not-connected') return null
  if (state.items.length === 0)
    return <Typography color="text.secondary">{props.empty}</Typography>
  const items = props.order(state.items)
  const byId = new Map(items.map((item) => [props.idOf(item), item]))
  return (
    <FormControl disabled={props.disabled}>
      <FormLabel id={labelId}>{props.label}</FormLabel>
      <RadioGroup
        aria-labelledby={labelId}
        value={props.value ?? ''}
        onChange={(_, id) => {
          const item = byId.get(id)
          if (item) props.onChange(item)
        }}
      >
        {items.map((item) => (
          <FormControlLabel
            key={props.idOf(item)}
            value={props.idOf(item)}
            control={<Radio />}
            label={
              <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
                <span>{props.nameOf(item)}</span>
                {props.detailOf && (
                  <Typography component="span" color="text.secondary">
                    {props.detailOf(item)}
                  </Typography>
                )}
              </Stack>
            }
          />
        ))}
      </RadioGroup>
    </FormControl>
  )
}
