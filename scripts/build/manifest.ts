// The web app manifest. Vite's PWA plugin writes it to manifest.webmanifest and links it from
// index.html; the icons come from scripts/make-icons.ts.
import type { ManifestOptions } from 'vite-plugin-pwa'
import { darkColors } from '../../src/app/colors.ts'

export const webAppManifest: Partial<ManifestOptions> = {
  // A fixed id keeps an installed app the same app if start_url ever changes.
  id: '/',
  name: 'Sluice',
  short_name: 'Sluice',
  description:
    'Sync Postgres subsets into local apps: your sources, their event logs and live shapes.',
  lang: 'en',
  start_url: '/sources',
  scope: '/',
  display: 'standalone',
  // The theme follows the system, but the app opens dark: the splash screen and title bar match.
  theme_color: darkColors.background,
  background_color: darkColors.background,
  icons: [
    {
      src: '/icons/icon-192.png',
      sizes: '192x192',
      type: 'image/png',
      purpose: 'any',
    },
    {
      src: '/icons/icon-512.png',
      sizes: '512x512',
      type: 'image/png',
      purpose: 'any',
    },
    {
      src: '/icons/icon-maskable-512.png',
      sizes: '512x512',
      type: 'image/png',
      purpose: 'maskable',
    },
  ],
}
