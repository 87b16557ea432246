import { tmpdir } from 'node:os'
import { join } from 'node:path'

const port = process.env.E2E_PORT ?? '21730'
/** Where the e2e server writes its control-plane URL for tests that write to Postgres. */
export const databaseUrlFile = join(tmpdir(), `sluice-e2e-${port}.database-url`)
/** Where the e2e launcher writes the URL of its fake PostHog (GET /recorded lists events). */
export const posthogUrlFile = join(tmpdir(), `sluice-e2e-${port}.posthog-url`)
/**
 * Where the e2e launcher writes the URLs of its fake Supabase and Neon. Script them with
 * `POST {url}/_control/{method}` and a JSON array of arguments (tests/support/fake-supabase.ts
 * and fake-neon.ts list the methods), e.g. seed, fail, revokeAll, reset.
 */
export const supabaseUrlFile = join(tmpdir(), `sluice-e2e-${port}.supabase-url`)
export const neonUrlFile = join(tmpdir(), `sluice-e2e-${port}.neon-url`)
/** Where the e2e launcher writes every email its local SMTP server (SMTP_URL) accepted: a JSON array. */
export const smtpMailFile = join(tmpdir(), `sluice-e2e-${port}.smtp-mail.json`)
