// The row under a provider's last step: Back, validating the connection the page built (it
// needs the network), and Continue once that connection passed.
import { Button } from '@mui/material'
import type { ReactNode } from 'react'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { WizardActions } from './provider-page.tsx'

export function ValidateActions(props: {
  /** The link to the step before. */
  back: ReactNode
  validateLabel: string
  canValidate: boolean
  onValidate: () => void
  canContinue: boolean
  onContinue: () => void
}) {
  return (
    <WizardActions>
      {props.back}
      <NeedsNetwork>
        <Button
          variant="outlined"
          onClick={props.onValidate}
          disabled={!props.canValidate}
        >
          {props.validateLabel}
        </Button>
      </NeedsNetwork>
      <Button
        variant="contained"
        disabled={!props.canContinue}
        onClick={props.onContinue}
      >
        Continue
      </Button>
    </WizardActions>
  )
}
