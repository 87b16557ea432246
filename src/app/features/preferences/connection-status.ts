// How /preferences words one provider connection.
import type { ProviderConnection } from '../providers/provider-api.ts'

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' })

export function connectionStatus(
  connection: ProviderConnection['connection'],
): string {
  if (!connection) return 'Not connected'
  const how = connection.method === 'oauth' ? 'OAuth' : 'a personal token'
  const since = new Date(connection.created_at)
  const when = Number.isNaN(since.getTime())
    ? ''
    : ` since ${dateFormat.format(since)}`
  return `Connected with ${how}${when}`
}
