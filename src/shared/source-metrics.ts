// The windows a source's figures are read over (GET /api/v1/sources/{id}/metrics?window=, and
// the source page's charts): the last hour by the minute, the last day and week by the hour.
// The retention of each resolution follows from the longest window that reads it.
export const METRIC_WINDOWS = {
  hour: { resolution: 'minute', ms: 60 * 60_000 },
  day: { resolution: 'hour', ms: 24 * 60 * 60_000 },
  week: { resolution: 'hour', ms: 7 * 24 * 60 * 60_000 },
} as const

export type MetricWindow = keyof typeof METRIC_WINDOWS

/** How long each resolution's points are kept. */
export const RETENTION_MS = {
  minute: METRIC_WINDOWS.hour.ms,
  hour: METRIC_WINDOWS.week.ms,
} as const
