// Connecting a test user's provider account through the real routes and a fake provider.
import { expect } from 'vitest'
import type { Browser } from './app.ts'

export type ProviderName = 'supabase' | 'neon'

/** GET /login; returns the provider's authorize URL Sluice redirected to. */
export async function beginConnect(
  browser: Browser,
  provider: ProviderName,
  returnTo?: string,
): Promise<URL> {
  const query = returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : ''
  const response = await browser.get(
    `/api/public/auth/${provider}/login${query}`,
  )
  expect(response.status).toBe(302)
  return new URL(response.headers.get('location') ?? '')
}

/** The fake approves at once: the callback path (with code and state) it redirects to. */
export async function approve(authorize: URL): Promise<string> {
  const response = await fetch(authorize, { redirect: 'manual' })
  expect(response.status).toBe(302)
  const back = new URL(response.headers.get('location') ?? '')
  return `${back.pathname}${back.search}`
}

/** A whole OAuth connection in `browser`; returns the callback's answer. */
export async function connectOAuth(
  browser: Browser,
  provider: ProviderName,
  returnTo?: string,
): Promise<Response> {
  const callback = await approve(
    await beginConnect(browser, provider, returnTo),
  )
  return browser.get(callback)
}

/** PUT a personal token. */
export function putToken(
  browser: Browser,
  provider: ProviderName,
  token: string,
): Promise<Response> {
  return browser.request(`/api/v1/provider-connections/${provider}`, {
    method: 'PUT',
    headers: { origin: browser.origin, 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  })
}

type Connections = {
  providers: {
    provider: ProviderName
    oauth: boolean
    connection: { method: string; created_at: string } | null
  }[]
}

/** This user's connection to `provider` as GET /api/v1/provider-connections reports it. */
export async function connectionOf(browser: Browser, provider: ProviderName) {
  const response = await browser.get('/api/v1/provider-connections')
  expect(response.status).toBe(200)
  const body = (await response.json()) as Connections
  return body.providers.find((p) => p.provider === provider)?.connection ?? null
}
