// The WAL forecast in words, one wording for the source page and the forecast's alert: a
// number of seconds rounded to what a person acts on (minutes, hours, days), never to the second.

/** "42 min", "3 h 5 min", "2 days 4 h"; under a minute is "under a minute". */
export function formatDuration(seconds: number): string {
  const minutes = Math.round(seconds / 60)
  if (minutes < 1) return 'under a minute'
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) {
    const rest = minutes % 60
    return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`
  }
  const days = Math.floor(hours / 24)
  const restHours = hours % 24
  const dayWord = days === 1 ? 'day' : 'days'
  return restHours === 0
    ? `${days} ${dayWord}`
    : `${days} ${dayWord} ${restHours} h`
}

/** When the slot would be invalidated: "in about 42 min", or "in under a minute". */
export function invalidatedIn(seconds: number): string {
  const duration = formatDuration(seconds)
  return seconds < 30 ? `in ${duration}` : `in about ${duration}`
}
