// The Alerts section's thresholds: the retained WAL that makes a
// replication_health_warning (an amount and a unit), the minutes a source may be reconnecting
// before it alerts, and the time left before a slot's invalidation below which the WAL
// forecast alerts. Checked as the API checks them (alert-threshold-fields.ts); a failed save
// keeps what was typed and says why.
import {
  Alert,
  Button,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material'
import { useState, type FormEvent } from 'react'
import type { AlertSettings } from '../../../shared/alerts.ts'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import {
  forecastMinutesText,
  parseThresholds,
  sameSettings,
  splitBytes,
  UNITS,
  type Unit,
} from './alert-threshold-fields.ts'
import { saveAlertSettings } from './alerts-api.ts'

export function AlertThresholds(props: {
  teamId: string
  saved: AlertSettings
  onSaved: (settings: AlertSettings) => void
}) {
  const initial = splitBytes(props.saved.wal_retained_threshold_bytes)
  const [amount, setAmount] = useState(initial.amount)
  const [unit, setUnit] = useState<Unit>(initial.unit)
  const [minutes, setMinutes] = useState(
    String(props.saved.reconnecting_minutes),
  )
  const [forecastMinutes, setForecastMinutes] = useState(
    forecastMinutesText(props.saved.wal_forecast_threshold_seconds),
  )
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<
    { ok: true } | { ok: false; message: string } | null
  >(null)
  const parsed = parseThresholds({ amount, unit, minutes, forecastMinutes })
  const unchanged =
    parsed.settings !== null && sameSettings(parsed.settings, props.saved)

  const save = async (event: FormEvent) => {
    event.preventDefault()
    if (!parsed.settings) return
    setBusy(true)
    setResult(null)
    try {
      props.onSaved(await saveAlertSettings(props.teamId, parsed.settings))
      setResult({ ok: true })
    } catch (e) {
      setResult({
        ok: false,
        message: `Failed to save thresholds: ${e instanceof Error ? e.message : String(e)}`,
      })
    } finally {
      setBusy(false)
    }
  }
  const edited = (set: (value: string) => void) => (value: string) => {
    set(value)
    setResult(null)
  }

  return (
    <form onSubmit={(e) => void save(e)} noValidate aria-label="Thresholds">
      <Stack spacing={2}>
        <Typography variant="h6" component="h3">
          Thresholds
        </Typography>
        <Typography color="text.secondary">
          A source alerts when its slot retains at least this much WAL, when it
          has been reconnecting for longer than these minutes, and when its slot
          would be invalidated sooner than these minutes at the current rate.
        </Typography>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          useFlexGap
          sx={{ flexWrap: 'wrap' }}
        >
          <TextField
            label="Retained WAL threshold"
            value={amount}
            onChange={(e) => edited(setAmount)(e.target.value)}
            error={parsed.amountError !== null}
            helperText={parsed.amountError ?? ' '}
            slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 16 } }}
          />
          <TextField
            select
            label="Unit"
            value={unit}
            onChange={(e) => edited((v) => setUnit(v as Unit))(e.target.value)}
            helperText=" "
            sx={{ minWidth: 110 }}
          >
            {UNITS.map((u) => (
              <MenuItem key={u.label} value={u.label}>
                {u.label}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Reconnecting minutes"
            value={minutes}
            onChange={(e) => edited(setMinutes)(e.target.value)}
            error={parsed.minutesError !== null}
            helperText={parsed.minutesError ?? ' '}
            slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 4 } }}
          />
          <TextField
            label="Slot invalidation minutes"
            value={forecastMinutes}
            onChange={(e) => edited(setForecastMinutes)(e.target.value)}
            error={parsed.forecastError !== null}
            helperText={parsed.forecastError ?? ' '}
            slotProps={{ htmlInput: { inputMode: 'decimal', maxLength: 8 } }}
          />
        </Stack>
        {result && (
          <Alert
            severity={result.ok ? 'success' : 'error'}
            role={result.ok ? 'status' : 'alert'}
          >
            {result.ok ? 'Thresholds saved.' : result.message}
          </Alert>
        )}
        <div>
          <NeedsNetwork>
            <Button
              type="submit"
              variant="outlined"
              disabled={busy || parsed.settings === null || unchanged}
            >
              {busy ? 'Saving...' : 'Save thresholds'}
            </Button>
          </NeedsNetwork>
        </div>
      </Stack>
    </form>
  )
}
