// Where each provider's personal token is created, as the connect form says it.
import type { Provider } from './provider-api.ts'

export const TOKEN_HELP: Record<
  Provider,
  { label: string; where: string; href: string }
> = {
  supabase: {
    label: 'Supabase access token',
    where:
      'Create one in the Supabase Dashboard under Account → Access Tokens.',
    href: 'https://supabase.com/dashboard/account/tokens',
  },
  neon: {
    label: 'Neon API key',
    where: 'Create one in the Neon Console under Account settings → API keys.',
    href: 'https://console.neon.tech/app/settings/api-keys',
  },
}
