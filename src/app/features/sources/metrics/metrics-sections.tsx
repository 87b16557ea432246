// The source page's figures: its charts over time, then its invalidation log. One
// component so the page names them in one line.
import type { Source } from '../../../../shared/entities.ts'
import { FiguresSection } from './figures-section.tsx'
import { InvalidationLog } from './invalidation-log.tsx'

export function MetricsSections({ source }: { source: Source }) {
  return (
    <>
      <FiguresSection source={source} />
      <InvalidationLog source={source} />
    </>
  )
}
