// The OAuth round trip of a provider connection: the browser navigates to the
// server's login route with where to come back; the server returns there, adding
// provider_error=<message> when the connection failed.
import type { Provider } from './provider-api.ts'
import { loginPath } from '../../../shared/api-routes.ts'

export function connectHref(provider: Provider, returnTo: string): string {
  return `${loginPath(provider)}?return_to=${encodeURIComponent(returnTo)}`
}

/** The current path and search, without a provider_error left from an earlier attempt. */
export function currentReturnTo(location: {
  pathname: string
  search: string
}) {
  const params = new URLSearchParams(location.search)
  params.delete('provider_error')
  const search = params.toString()
  return search ? `${location.pathname}?${search}` : location.pathname
}
