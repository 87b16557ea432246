import { NotYetAvailable } from '../../components/not-yet-available.tsx'

export function ShapeExplorerPage() {
  return <NotYetAvailable title="Shape Explorer" />
}
