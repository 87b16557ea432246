// Whether the window is at least `minPx` wide: tables and the fixed sidebar above it, blocks
// and a drawer below. Read at once (noSsr), so a phone never lays out the wide form first.
import { useMediaQuery } from '@mui/material'
import { MOBILE_BREAKPOINT_PX } from '../../shared/constants.ts'

export const useWideScreen = (minPx: number = MOBILE_BREAKPOINT_PX): boolean =>
  useMediaQuery(`(min-width:${minPx}px)`, { noSsr: true })
