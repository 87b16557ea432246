// Dark by default, light when the system asks for it: both schemes, picked by the OS setting.
import { createTheme } from '@mui/material'
import { darkColors } from './colors.ts'

export const theme = createTheme({
  cssVariables: { colorSchemeSelector: 'media' },
  colorSchemes: {
    dark: {
      palette: {
        primary: { main: darkColors.primary },
        background: {
          default: darkColors.background,
          paper: darkColors.paper,
        },
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
