// Copies a value to the clipboard; the tooltip says 'Copied!' for a moment.
import ContentCopyIcon from '@mui/icons-material/ContentCopy'
import { IconButton, Tooltip } from '@mui/material'
import { useEffect, useState } from 'react'
import { COPY_TOOLTIP_RESET_MS } from '../../shared/constants.ts'

type Status = 'idle' | 'copied' | 'failed'
const TITLES: Record<Status, string> = {
  idle: 'Copy',
  copied: 'Copied!',
  failed: 'Copy failed',
}

export function CopyButton({ value, label }: { value: string; label: string }) {
  const [status, setStatus] = useState<Status>('idle')
  useEffect(() => {
    if (status === 'idle') return
    const timer = setTimeout(() => setStatus('idle'), COPY_TOOLTIP_RESET_MS)
    return () => clearTimeout(timer)
  }, [status])
  const copy = () => {
    // The clipboard API exists only in secure contexts and may be refused: say so.
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(value))
      .then(() => setStatus('copied'))
      .catch(() => setStatus('failed'))
  }
  return (
    <Tooltip title={TITLES[status]}>
      <IconButton size="small" aria-label={label} onClick={copy}>
        <ContentCopyIcon fontSize="inherit" />
      </IconButton>
    </Tooltip>
  )
}
