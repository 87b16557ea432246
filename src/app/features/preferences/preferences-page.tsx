// /preferences: who is signed in, the provider accounts connected, and the way out.
import { Button, Link, Stack, TableCell, Typography } from '@mui/material'
import { Link as RouterLink } from '@tanstack/react-router'
import { SUPPORT_EMAIL } from '../../../shared/constants.ts'
import { DataTable } from '../../components/data-table.tsx'
import { PageTitle } from '../../components/page-title.tsx'
import { useCurrentUser } from '../../db/tab/hooks.ts'
import { useSignOut } from '../auth/use-sign-out.ts'
import { ProviderConnectionsSection } from './provider-connections-section.tsx'

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'long' })

export function PreferencesPage() {
  const user = useCurrentUser()
  const signOut = useSignOut()
  if (!user) return null
  const rows: [string, string][] = [
    ['Name', user.name || '-'],
    ['Email', user.email],
    ['Created', dateFormat.format(new Date(user.created_at))],
  ]
  return (
    <Stack spacing={3} sx={{ maxWidth: 720 }}>
      <PageTitle>Preferences</PageTitle>
      <div>
        <Button variant="outlined" onClick={() => void signOut()}>
          Sign out
        </Button>
      </div>
      <Typography>
        <Link component={RouterLink} to="/welcome">
          Tell us what you are building
        </Link>
      </Typography>
      <Typography color="text.secondary">
        Need help with your account or want to change these details? Contact
        support at {SUPPORT_EMAIL}.
      </Typography>
      <DataTable label="User details" rows={rows} rowKey={([label]) => label}>
        {([label, value]) => (
          <>
            <TableCell component="th" scope="row" sx={{ width: 160 }}>
              {label}
            </TableCell>
            <TableCell>{value}</TableCell>
          </>
        )}
      </DataTable>
      <ProviderConnectionsSection />
    </Stack>
  )
}
