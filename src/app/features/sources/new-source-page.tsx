import { NotYetAvailable } from '../../components/not-yet-available.tsx'

export function NewSourcePage() {
  return <NotYetAvailable title="Connect a Postgres database" />
}
