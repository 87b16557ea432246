// The team page's setup links: each link the team made, read from the synced store,
// with when it was made and expires, whether it was used (and the source it added) or
// deleted, and a delete that asks first and waits for the deletion to sync. A table where there
// is room for its columns, one block per link below the mobile breakpoint.
import { Button, Stack, TableCell, Typography } from '@mui/material'
import {
  setupFormPath,
  setupFormRegionLabel,
  setupFormUnusable,
  type SetupForm,
} from '../../../shared/setup-forms.ts'
import { BlockLine, BlockList } from '../../components/block-list.tsx'
import { TextLink } from '../../components/links.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { DataTable } from '../../components/data-table.tsx'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { useConfirmedAction } from '../../components/use-confirmed-action.ts'
import { useSyncedWrites, useTeamSetupForms } from '../../db/tab/hooks.ts'
import { CopyButton } from '../../components/copy-button.tsx'
import { formatDateTime } from '../sources/format.ts'
import { CreateSetupLink } from './create-setup-link.tsx'
import { deleteSetupForm } from './setup-forms-api.ts'
import { useWideScreen } from '../../components/use-wide-screen.ts'
import { SectionHeading } from '../../components/section-heading.tsx'

const STATUS_LABELS = {
  deleted: 'Deleted',
  used: 'Used',
  expired: 'Expired',
} as const

function Status({ form }: { form: SetupForm }) {
  const unusable = setupFormUnusable(form)
  const when =
    unusable === 'deleted'
      ? form.deleted_at
      : unusable === 'used'
        ? form.used_at
        : null
  return (
    <>
      {unusable ? STATUS_LABELS[unusable] : 'Usable'}
      {when && ` ${formatDateTime(when)}`}
    </>
  )
}

type FormProps = { form: SetupForm; onDelete: (form: SetupForm) => void }

function LinkId({ form }: { form: SetupForm }) {
  const link = new URL(setupFormPath(form.id), location.origin).toString()
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
      <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
        {form.id.slice(0, 8)}
      </Typography>
      <CopyButton value={link} label={`Copy setup link ${form.id}`} />
    </Stack>
  )
}

const regionOf = (form: SetupForm) =>
  form.region ? setupFormRegionLabel(form.region) : 'Any'

function AddedSource({ form }: { form: SetupForm }) {
  return form.source_id ? (
    <TextLink
      to="/teams/$teamId/$sourceId"
      params={{ teamId: form.team_id, sourceId: form.source_id }}
    >
      {form.source_id.slice(0, 8)}
    </TextLink>
  ) : (
    '-'
  )
}

function DeleteLink({ form, onDelete }: FormProps) {
  return (
    <NeedsNetwork>
      <Button
        color="error"
        size="small"
        disabled={form.deleted_at !== null}
        onClick={() => onDelete(form)}
        aria-label={`Delete setup link ${form.id}`}
      >
        Delete
      </Button>
    </NeedsNetwork>
  )
}

function FormCells(props: FormProps) {
  const { form } = props
  return (
    <>
      <TableCell>
        <LinkId form={form} />
      </TableCell>
      <TableCell>{regionOf(form)}</TableCell>
      <TableCell>{formatDateTime(form.created_at)}</TableCell>
      <TableCell>{formatDateTime(form.expires_at)}</TableCell>
      <TableCell>
        <Status form={form} />
      </TableCell>
      <TableCell>
        <AddedSource form={form} />
      </TableCell>
      <TableCell align="right">
        <DeleteLink {...props} />
      </TableCell>
    </>
  )
}

function FormTable(props: {
  forms: SetupForm[]
  onDelete: (form: SetupForm) => void
}) {
  return (
    <DataTable
      label="Setup links"
      columns={['Link', 'Region', 'Created', 'Expires', 'Status', 'Source', '']}
      rows={props.forms}
      rowKey={(form) => form.id}
    >
      {(form) => <FormCells form={form} onDelete={props.onDelete} />}
    </DataTable>
  )
}

/** On a phone: seven columns left each a few characters a line, so each link is a block. */
function FormList(props: {
  forms: SetupForm[]
  onDelete: (form: SetupForm) => void
}) {
  return (
    <BlockList
      label="Setup links"
      items={props.forms}
      empty=""
      itemKey={(form) => form.id}
    >
      {(form) => (
        <>
          <Stack
            direction="row"
            sx={{ alignItems: 'center', justifyContent: 'space-between' }}
          >
            <LinkId form={form} />
            <DeleteLink form={form} onDelete={props.onDelete} />
          </Stack>
          <BlockLine label="Status">
            <Status form={form} />
          </BlockLine>
          <BlockLine label="Region">{regionOf(form)}</BlockLine>
          <BlockLine label="Created">
            {formatDateTime(form.created_at)}
          </BlockLine>
          <BlockLine label="Expires">
            {formatDateTime(form.expires_at)}
          </BlockLine>
          <BlockLine label="Source">
            <AddedSource form={form} />
          </BlockLine>
        </>
      )}
    </BlockList>
  )
}

export function SetupLinksSection({ teamId }: { teamId: string }) {
  const forms = useTeamSetupForms(teamId)
  const wide = useWideScreen()
  const { awaitSetupFormDeleted } = useSyncedWrites()
  const removal = useConfirmedAction(async (form: SetupForm) => {
    const { txid } = await deleteSetupForm(teamId, form.id)
    await awaitSetupFormDeleted(form.id, txid)
  })

  return (
    <section aria-label="Setup links">
      <SectionHeading title="Setup links">
        <CreateSetupLink teamId={teamId} />
      </SectionHeading>
      {forms && forms.length === 0 && (
        <Typography color="text.secondary">
          No setup links yet. A setup link lets someone without an account add
          their database to this team, once.
        </Typography>
      )}
      {forms &&
        forms.length > 0 &&
        (wide ? (
          <FormTable forms={forms} onDelete={removal.ask} />
        ) : (
          <FormList forms={forms} onDelete={removal.ask} />
        ))}
      <ConfirmDialog
        {...removal.dialog}
        title="Delete setup link"
        confirmLabel="Delete"
        busyLabel="Deleting..."
      >
        <Typography>
          The link stops working at once. A source it already added stays.
        </Typography>
      </ConfirmDialog>
    </section>
  )
}
