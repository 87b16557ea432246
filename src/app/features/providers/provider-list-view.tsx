// A provider list as a choice of one: radio rows that stay readable on a phone, once
// the list has items (list-state-view.tsx shows it until then).
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
import { ListStateView } from './list-state-view.tsx'
import type { ListState } from './refetch-policy.ts'

export function ProviderListView<T>(props: {
  state: ListState<T>
  label: string
  empty: string
  idOf: (item: T) => string
  nameOf: (item: T) => string
  detailOf?: (item: T) => ReactNode
  /** The order this list is shown in (sorting.ts). */
  order: (items: T[]) => T[]
  value: string | null
  onChange: (item: T) => void
  disabled?: boolean
}) {
  const labelId = useId()
  return (
    <ListStateView state={props.state} empty={props.empty}>
      {(listed) => {
        const items = props.order(listed)
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
                    <Stack
                      direction="row"
                      spacing={1}
                      sx={{ flexWrap: 'wrap' }}
                    >
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
      }}
    </ListStateView>
  )
}
