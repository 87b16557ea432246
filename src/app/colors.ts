// The dark scheme's colours, named once: the theme uses them, and so does the web app manifest
// (which Vite's config reads, so this file must not import MUI).
export const darkColors = {
  primary: '#38bdf8',
  background: '#0b1120',
  paper: '#111827',
} as const
