// The Alerts section's thresholds: the retained WAL that makes a
// replication_health_warning (an amount and a unit) and the minutes a source may be
// reconnecting before it alerts. Checked here as the API checks them; a failed save keeps
// what was typed and says why.
import {
  Alert,
  Button,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material'
import { useState, type FormEvent } from 'react'
import {
  alertSettingsSchema,
  type AlertSettings,
} from '../../../shared/alerts.ts'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { saveAlertSettings } from './alerts-api.ts'

const UNITS = [
  { label: 'bytes', bytes: 1 },
  { label: 'KiB', bytes: 1024 },
  { label: 'MiB', bytes: 1024 ** 2 },
  { label: 'GiB', bytes: 1024 ** 3 },
  { label: 'TiB', bytes: 1024 ** 4 },
] as const
type Unit = (typeof UNITS)[number]['label']

/** The largest unit that shows the threshold as a whole number. */
function split(bytes: number): { amount: string; unit: Unit } {
  const unit =
    [...UNITS].reverse().find((u) => bytes % u.bytes === 0) ?? UNITS[0]
  return { amount: String(bytes / unit.bytes), unit: unit.label }
}

const MAX_MINUTES = 1440

/** The form's text as settings, or what is wrong with each field. */
function parse(amount: string, unit: Unit, minutes: string) {
  const perUnit = UNITS.find((u) => u.label === unit)?.bytes ?? 1
  const wholeAmount = /^\d{1,16}$/.test(amount.trim())
  const bytes = Number(amount.trim()) * perUnit
  const amountError = !wholeAmount
    ? 'Enter a whole number'
    : bytes < 1
      ? 'Enter at least 1'
      : bytes > Number.MAX_SAFE_INTEGER
        ? 'Too large: choose a smaller amount or unit'
        : null
  const wholeMinutes = /^\d{1,4}$/.test(minutes.trim())
  const minutesError =
    wholeMinutes && Number(minutes) >= 1 && Number(minutes) <= MAX_MINUTES
      ? null
      : `Enter a whole number of minutes from 1 to ${MAX_MINUTES}`
  const settings = alertSettingsSchema.safeParse({
    wal_retained_threshold_bytes: bytes,
    reconnecting_minutes: Number(minutes.trim()),
  })
  return {
    amountError,
    minutesError,
    settings:
      !amountError && !minutesError && settings.success ? settings.data : null,
  }
}

export function AlertThresholds(props: {
  teamId: string
  saved: AlertSettings
  onSaved: (settings: AlertSettings) => void
}) {
  const initial = split(props.saved.wal_retained_threshold_bytes)
  const [amount, setAmount] = useState(initial.amount)
  const [unit, setUnit] = useState<Unit>(initial.unit)
  const [minutes, setMinutes] = useState(
    String(props.saved.reconnecting_minutes),
  )
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<
    { ok: true } | { ok: false; message: string } | null
  >(null)
  const parsed = parse(amount, unit, minutes)
  const unchanged =
    parsed.settings !== null &&
    parsed.settings.wal_retained_threshold_bytes ===
      props.saved.wal_retained_threshold_bytes &&
    parsed.settings.reconnecting_minutes === props.saved.reconnecting_minutes

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
          A source alerts when its slot retains at least this much WAL, and when
          it has been reconnecting for longer than these minutes.
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
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
