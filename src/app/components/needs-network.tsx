// Wraps an action that needs the server: offline it is disabled and says why.
import { Tooltip } from '@mui/material'
import { cloneElement, type ReactElement } from 'react'
import { OFFLINE_REASON, useOnline } from '../lib/use-online.ts'

export function NeedsNetwork(props: {
  children: ReactElement<{ disabled?: boolean }>
}) {
  const online = useOnline()
  if (online) return props.children
  return (
    <Tooltip title={OFFLINE_REASON}>
      {/* A disabled control fires no events; the span lets the tooltip still explain it. */}
      <span>{cloneElement(props.children, { disabled: true })}</span>
    </Tooltip>
  )
}
