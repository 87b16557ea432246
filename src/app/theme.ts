// Dark by default, light when the system asks for it: both schemes, picked by the OS setting.
import { createTheme } from '@mui/material'

export const theme = createTheme({
  cssVariables: { colorSchemeSelector: 'media' },
  colorSchemes: {
    dark: {
      palette: {
        primary: { main: '#38bdf8' },
        background: { default: '#0b1120', paper: '#111827' },
      },
    },
    light: { palette: { primary: { main: '#0369a1' } } },
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily:
      'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
})
