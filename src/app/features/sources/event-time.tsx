// When an event happened: to the second on screen, everything about it on hover.
import { formatDateTimeToSecond, formatFullTimestamp } from './format.ts'

export function EventTime({ at }: { at: string }) {
  const date = new Date(at)
  // A machine-readable instant only when the stored text is one.
  const instant = Number.isNaN(date.getTime()) ? undefined : date.toISOString()
  return (
    <time dateTime={instant} title={formatFullTimestamp(at)}>
      {formatDateTimeToSecond(at)}
    </time>
  )
}
