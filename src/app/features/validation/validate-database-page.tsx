// The public tool: paste a Postgres URL, learn whether the sync engine can use it and
// what to fix. No sign-in; nothing typed here is stored.
import {
  Alert,
  Box,
  Button,
  InputLabel,
  Link,
  Stack,
  TextField,
  Typography,
} from '@mui/material'
import { useState, type FormEvent } from 'react'
import { useDocumentTitle } from '../../components/document-title.ts'
import { Logo } from '../../components/logo.tsx'
import { PublicPage } from '../../components/public-page.tsx'
import { DATABASE_URL_HELP_LINK } from '../../../shared/constants.ts'
import { useDatabaseValidation } from './use-database-validation.ts'
import { ValidationResultsPanel } from './validation-results-panel.tsx'

export function ValidateDatabasePage() {
  useDocumentTitle('Validate Database Connection')
  const [url, setUrl] = useState('')
  // The URL the shown result is about, so editing the field does not rename the fix steps.
  const [validatedUrl, setValidatedUrl] = useState('')
  const { result, isValidating, error, validate } = useDatabaseValidation()

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!url.trim()) return
    setValidatedUrl(url)
    void validate(url)
  }

  return (
    <PublicPage>
      <Stack spacing={1} sx={{ alignItems: 'center', textAlign: 'center' }}>
        <Logo size={40} />
        <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
          Validate Database Connection
        </Typography>
        <Typography color="text.secondary">
          Check your database connection and ensure it is ready for the sync
          engine.
        </Typography>
      </Stack>

      <Stack component="form" spacing={1.5} noValidate onSubmit={onSubmit}>
        <Box
          sx={{
            display: 'flex',
            justifyContent: 'space-between',
            alignItems: 'baseline',
          }}
        >
          <InputLabel htmlFor="database-url">Database URL</InputLabel>
          <Link
            href={DATABASE_URL_HELP_LINK}
            target="_blank"
            rel="noopener noreferrer"
            variant="body2"
          >
            What does the database need?
          </Link>
        </Box>
        <TextField
          id="database-url"
          name="database_url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="postgresql://user:password@host:5432/database?sslmode=require"
          autoComplete="off"
          spellCheck={false}
          fullWidth
        />
        <Typography variant="body2" color="text.secondary">
          Note: Your database credentials are never stored.
        </Typography>
        <Button type="submit" variant="contained" disabled={isValidating}>
          {isValidating ? 'Validating...' : 'Validate Connection'}
        </Button>
      </Stack>

      {/* A failed call is about the request, not the database: its message, not the panel. */}
      {error && <Alert severity="error">{error}</Alert>}
      {result && !error && (
        <ValidationResultsPanel result={result} databaseUrl={validatedUrl} />
      )}
    </PublicPage>
  )
}
