// How much write-ahead log the source's slot holds, as the engine last measured it (every 15 s,
// and at once when the source becomes active), and, while the slot falls behind on a database
// with max_slot_wal_keep_size, when it would be invalidated at the current rate. A slot that
// keeps WAL grows the user's disk: the warning colour is the prompt to look before it fills.
import { Alert, Stack, Typography } from '@mui/material'
import type { Source } from '../../../shared/entities.ts'
import { PanelSection } from '../../components/panel-section.tsx'
import {
  formatBytes,
  formatDateTimeToSecond,
  walForecastText,
  walStatusWarns,
} from './format.ts'

function Row({
  label,
  value,
  warn = false,
}: {
  label: string
  value: string
  warn?: boolean
}) {
  return (
    <Stack direction="row" spacing={2}>
      <Typography
        component="dt"
        variant="body2"
        color="text.secondary"
        sx={{ width: 140, flexShrink: 0 }}
      >
        {label}
      </Typography>
      <Typography
        component="dd"
        variant="body2"
        sx={{ m: 0, fontWeight: warn ? 600 : undefined }}
        color={warn ? 'warning.main' : undefined}
      >
        {value}
      </Typography>
    </Stack>
  )
}

const bytes = (value: number | null) =>
  value === null ? 'Not measured yet' : formatBytes(value)

export function ReplicationHealth({ source }: { source: Source }) {
  const warns = walStatusWarns(source.wal_status)
  const forecast = walForecastText(source.wal_forecast_seconds)
  return (
    <PanelSection title="Replication health" maxWidth={720}>
      {source.health_checked_at === null ? (
        <Typography variant="body2" color="text.secondary">
          Not measured yet: the engine measures the replication slot once the
          source is active.
        </Typography>
      ) : (
        <Stack component="dl" spacing={0.5} sx={{ m: 0 }}>
          <Row label="Retained WAL" value={bytes(source.wal_retained_bytes)} />
          {forecast !== null && <Row label="Forecast" value={forecast} warn />}
          <Row label="Replication lag" value={bytes(source.wal_lag_bytes)} />
          <Row
            label="WAL status"
            value={source.wal_status ?? 'Unknown'}
            warn={warns}
          />
          <Row
            label="Last measured"
            value={formatDateTimeToSecond(source.health_checked_at)}
          />
        </Stack>
      )}
      {warns && (
        <Alert severity="warning" role="note" sx={{ mt: 2 }}>
          The replication slot holds more write-ahead log than max_wal_size
          (wal_status {source.wal_status}). The database&apos;s disk keeps
          growing until the engine catches up; a lost slot is recreated and its
          shapes are refetched.
        </Alert>
      )}
    </PanelSection>
  )
}
