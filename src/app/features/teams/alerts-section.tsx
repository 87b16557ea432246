// The team page's 'Alerts': the team's destinations (webhook URL or email address,
// created) with 'Send test alert' and a delete that asks first, and the delivery log (time,
// event, destination, status, attempt), all read from the synced store, never a secret; and
// the thresholds (read from the API: they are not synced). 'Add email' is there only where
// the server can send email.
import { Alert, Button, Stack, TableCell, Typography } from '@mui/material'
import { useState } from 'react'
import {
  emailAddressOf,
  type AlertDestination,
} from '../../../shared/alerts.ts'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { DataTable } from '../../components/data-table.tsx'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { useConfirmedAction } from '../../components/use-confirmed-action.ts'
import { SectionHeading } from '../../components/section-heading.tsx'
import {
  useSyncedWrites,
  useTeamAlertDeliveries,
  useTeamAlertDestinations,
  type AlertDeliveryAttempt,
} from '../../db/tab/hooks.ts'
import { formatDateTime } from '../sources/format.ts'
import { AddAlertDestination } from './add-alert-destination.tsx'
import { AlertThresholds } from './alert-thresholds.tsx'
import { deleteAlertDestination, sendTestAlert } from './alerts-api.ts'
import { useAlertSettings } from './use-alert-settings.ts'

/** What a destination is shown as: a webhook's URL, or an email destination's address. */
const shown = (url: string) => emailAddressOf(url) ?? url

const outcome = (row: AlertDeliveryAttempt) =>
  row.delivered
    ? `Delivered (${row.status_code})`
    : (row.error ?? `Failed (${row.status_code})`)

function DeliveryLog({ teamId }: { teamId: string }) {
  const rows = useTeamAlertDeliveries(teamId)
  if (!rows) return null
  if (rows.length === 0)
    return <Typography color="text.secondary">No deliveries yet.</Typography>
  return (
    <DataTable
      label="Delivery log"
      columns={['Time', 'Event', 'Destination', 'Status', 'Attempt']}
      rows={rows}
      rowKey={(row) => row.id}
    >
      {(row) => (
        <>
          <TableCell>{formatDateTime(row.attempted_at)}</TableCell>
          <TableCell>
            {row.event} ({row.state})
          </TableCell>
          <TableCell sx={{ wordBreak: 'break-all' }}>
            {row.destination_url ? shown(row.destination_url) : '-'}
          </TableCell>
          <TableCell>{outcome(row)}</TableCell>
          <TableCell>{row.attempt}</TableCell>
        </>
      )}
    </DataTable>
  )
}

export function AlertsSection({ teamId }: { teamId: string }) {
  const destinations = useTeamAlertDestinations(teamId)
  const settings = useAlertSettings(teamId)
  const emailAvailable = settings.loaded?.emailAvailable
  const { awaitDestinationDeleted } = useSyncedWrites()
  const [notice, setNotice] = useState<string | null>(null)
  const removal = useConfirmedAction(async (destination: AlertDestination) => {
    const { txid } = await deleteAlertDestination(teamId, destination.id)
    await awaitDestinationDeleted(destination.id, txid)
  })
  const test = async (destination: AlertDestination) => {
    setNotice(null)
    try {
      await sendTestAlert(teamId, destination.id)
      setNotice('Test alert queued: it shows in the delivery log once sent.')
    } catch (e) {
      setNotice(
        `Failed to send test alert: ${e instanceof Error ? e.message : String(e)}`,
      )
    }
  }

  return (
    <section aria-label="Alerts">
      <SectionHeading title="Alerts">
        <Stack direction="row" spacing={1}>
          {emailAvailable && (
            <AddAlertDestination teamId={teamId} kind="email" />
          )}
          <AddAlertDestination teamId={teamId} kind="webhook" />
        </Stack>
      </SectionHeading>
      <Stack spacing={2}>
        {emailAvailable === false && (
          <Typography color="text.secondary">
            Email alerts are off: this server has no SMTP server configured (its
            operator sets SMTP_URL).
          </Typography>
        )}
        {destinations && destinations.length === 0 && (
          <Typography color="text.secondary">
            No alert destinations yet. Sluice sends an alert to each webhook or
            email address when a source needs attention, and again when it
            recovers.
          </Typography>
        )}
        {destinations && destinations.length > 0 && (
          <DataTable
            label="Alert destinations"
            columns={['Destination', 'Created', '']}
            rows={destinations}
            rowKey={(destination) => destination.id}
          >
            {(destination) => (
              <>
                <TableCell sx={{ wordBreak: 'break-all' }}>
                  {shown(destination.url)}
                </TableCell>
                <TableCell>{formatDateTime(destination.created_at)}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <NeedsNetwork>
                    <Button size="small" onClick={() => void test(destination)}>
                      Send test alert
                    </Button>
                  </NeedsNetwork>
                  <NeedsNetwork>
                    <Button
                      color="error"
                      size="small"
                      onClick={() => removal.ask(destination)}
                      aria-label={`Delete ${shown(destination.url)}`}
                    >
                      Delete
                    </Button>
                  </NeedsNetwork>
                </TableCell>
              </>
            )}
          </DataTable>
        )}
        {notice && (
          <Alert severity="info" onClose={() => setNotice(null)}>
            {notice}
          </Alert>
        )}
        <Typography variant="h6" component="h3">
          Delivery log
        </Typography>
        <DeliveryLog teamId={teamId} />
        {settings.loaded && (
          <AlertThresholds
            key={teamId}
            teamId={teamId}
            saved={settings.loaded.settings}
            onSaved={settings.saved}
          />
        )}
        {settings.error && (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={settings.retry}>
                Retry
              </Button>
            }
          >
            Failed to load the thresholds: {settings.error}
          </Alert>
        )}
      </Stack>
      <ConfirmDialog
        {...removal.dialog}
        title="Delete alert destination"
        confirmLabel="Delete"
        busyLabel="Deleting..."
      >
        <Typography>
          Alerts stop going to this destination at once, retries included.
        </Typography>
      </ConfirmDialog>
    </section>
  )
}
