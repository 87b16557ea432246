// A wizard page that picks one item of a provider list (an organization, a project, a branch):
// the list behind the connect gate, the draft's earlier pick preselected, Back, and Continue
// once the pick is in the list as last read.
import { Button } from '@mui/material'
import { useState, type ReactNode } from 'react'
import { ProviderGate, type Gate } from './provider-gate.tsx'
import { ProviderListView } from './provider-list-view.tsx'
import { ProviderPage, WizardActions } from './provider-page.tsx'
import type { ProviderList } from './use-provider-list.ts'

export function ProviderPickPage<
  T extends { id: string; name: string },
>(props: {
  steps: string[]
  title: string
  gate: Gate
  list: ProviderList<T>
  label: string
  empty: string
  /** The order this list is shown in (sorting.ts). */
  order: (items: T[]) => T[]
  detailOf?: (item: T) => ReactNode
  /** The id the draft holds from an earlier visit. */
  initial: string | null
  /** The link to the step before. */
  back: ReactNode
  onContinue: (item: T) => void
}) {
  const { list } = props
  const [picked, setPicked] = useState<string | null>(props.initial)
  const chosen =
    list.state.kind === 'list'
      ? (list.state.items.find((item) => item.id === picked) ?? null)
      : null

  return (
    <ProviderPage steps={props.steps} title={props.title}>
      <ProviderGate
        gate={props.gate}
        lists={[list.state]}
        onConnected={list.reload}
      >
        <ProviderListView
          state={list.state}
          order={props.order}
          label={props.label}
          empty={props.empty}
          idOf={(item) => item.id}
          nameOf={(item) => item.name}
          detailOf={props.detailOf}
          value={picked}
          onChange={(item) => setPicked(item.id)}
        />
      </ProviderGate>
      <WizardActions>
        {props.back}
        <Button
          variant="contained"
          disabled={!chosen}
          onClick={() => chosen && props.onContinue(chosen)}
        >
          Continue
        </Button>
      </WizardActions>
    </ProviderPage>
  )
}
